package dev.billing.activities.payments.stripe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.activities.payments.InvalidGatewayRequestException;
import dev.billing.domain.Money;
import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The small value types of the Stripe adapter: amounts and tokens. */
class StripeValuesTest {

  /**
   * One row per entry of Stripe's exponent table, plus the two-decimal default: our amount (ISO
   * minor units, the JDK's digits), Stripe's amount for it, and why.
   */
  @ParameterizedTest(name = "{0}: {1} ISO minor units = {2} at Stripe")
  @CsvSource({
    "BIF, 5000, 5000", // zero-decimal, ISO 0
    "CLP, 5000, 5000",
    "DJF, 5000, 5000",
    "GNF, 5000, 5000",
    "JPY, 1200, 1200",
    "KMF, 5000, 5000",
    "KRW, 5000, 5000",
    "MGA, 150000, 1500", // zero-decimal at Stripe, ISO 2: 1500.00 ariary is 1500
    "PYG, 5000, 5000",
    "RWF, 5000, 5000",
    "VND, 5000, 5000",
    "VUV, 5000, 5000",
    "XAF, 5000, 5000",
    "XOF, 5000, 5000",
    "XPF, 5000, 5000",
    "ISK, 1500, 150000", // two decimals at Stripe for compatibility, ISO 0
    "UGX, 1500, 150000",
    "HUF, 150000, 150000", // special case for payouts only
    "TWD, 150000, 150000",
    "BHD, 12340, 12340", // three-decimal, as ISO
    "JOD, 12340, 12340",
    "KWD, 12340, 12340",
    "OMR, 12340, 12340",
    "TND, 12340, 12340",
    "USD, 999, 999", // not in the table: two decimals
  })
  void amountsFollowStripesExponentPerCurrency(String currency, long ours, long stripes) {
    assertThat(StripeAmounts.toStripe(new Money(ours, currency))).isEqualTo(stripes);
    assertThat(StripeAmounts.fromStripe(stripes, currency.toLowerCase(Locale.ROOT)))
        .isEqualTo(new Money(ours, currency));
  }

  @Test
  void everyRowOfTheExponentTableIsPinnedAbove() throws NoSuchMethodException {
    CsvSource rows =
        StripeValuesTest.class
            .getDeclaredMethod(
                "amountsFollowStripesExponentPerCurrency", String.class, long.class, long.class)
            .getAnnotation(CsvSource.class);
    assertThat(Arrays.stream(rows.value()).map(r -> r.split(",")[0].trim()))
        .containsAll(StripeAmounts.STRIPE_EXPONENTS.keySet());
  }

  @Test
  void anMgaAmountWithAFractionOfAnAriaryIsRefusedBeforeItIsSent() {
    assertThatThrownBy(() -> StripeAmounts.toStripe(new Money(150050, "MGA")))
        .isInstanceOfSatisfying(
            InvalidGatewayRequestException.class,
            e -> assertThat(e.code()).isEqualTo("amount_precision"));
  }

  @Test
  void stripeSpellsCurrenciesInLowercase() {
    assertThat(StripeAmounts.currency(new Money(999, "EUR"))).isEqualTo("eur");
  }

  @Test
  void tokensNameTheCustomerAndThePaymentMethod() {
    assertThat(StripePaymentMethodToken.parse("cus_A1/pm_B2"))
        .isEqualTo(new StripePaymentMethodToken("cus_A1", "pm_B2"));
    assertThat(StripePaymentMethodToken.parse("pm_card_visa"))
        .isEqualTo(new StripePaymentMethodToken(null, "pm_card_visa"));
    assertThat(StripePaymentMethodToken.parse("cus_A1/pm_B2").token()).isEqualTo("cus_A1/pm_B2");
    assertThat(StripePaymentMethodToken.parse("cus_A1/pm_B2").toString())
        .doesNotContain("A1")
        .doesNotContain("B2");
    assertThatThrownBy(() -> StripePaymentMethodToken.parse("acct_X/pm_B2"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageNotContaining("acct_X");
    assertThatThrownBy(() -> StripePaymentMethodToken.parse("cus_A1/"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
