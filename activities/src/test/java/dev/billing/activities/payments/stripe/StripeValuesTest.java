package dev.billing.activities.payments.stripe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.domain.Money;
import org.junit.jupiter.api.Test;

/** The small value types of the Stripe adapter: amounts, tokens, search quoting. */
class StripeValuesTest {

  @Test
  void amountsAreIsoMinorUnitsExceptStripesTwoDecimalCompatibilityCurrencies() {
    assertThat(StripeAmounts.toStripe(new Money(999, "USD"))).isEqualTo(999);
    assertThat(StripeAmounts.toStripe(new Money(1200, "JPY"))).isEqualTo(1200);
    assertThat(StripeAmounts.toStripe(new Money(12340, "BHD"))).isEqualTo(12340);
    assertThat(StripeAmounts.toStripe(new Money(1500, "ISK"))).isEqualTo(150000);
    assertThat(StripeAmounts.fromStripe(150000, "isk")).isEqualTo(new Money(1500, "ISK"));
    assertThat(StripeAmounts.fromStripe(999, "usd")).isEqualTo(new Money(999, "USD"));
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
        .doesNotContain("A1").doesNotContain("B2");
    assertThatThrownBy(() -> StripePaymentMethodToken.parse("acct_X/pm_B2"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageNotContaining("acct_X");
    assertThatThrownBy(() -> StripePaymentMethodToken.parse("cus_A1/"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void searchValuesEscapeQuotesAndBackslashes() {
    assertThat(StripeGateway.quote("charge:sub-1:3:1")).isEqualTo("charge:sub-1:3:1");
    assertThat(StripeGateway.quote("o'neil\\x")).isEqualTo("o\\'neil\\\\x");
  }
}
