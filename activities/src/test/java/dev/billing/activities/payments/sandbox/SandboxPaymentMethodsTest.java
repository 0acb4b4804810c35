package dev.billing.activities.payments.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.domain.PaymentMethod;
import org.junit.jupiter.api.Test;

class SandboxPaymentMethodsTest {

  @Test
  void masksFollowStripesTestCards() {
    assertThat(SandboxPaymentMethods.paymentMethod("pm_card_visa"))
        .isEqualTo(new PaymentMethod("pm_card_visa", "Visa •••• 4242"));
    assertThat(SandboxPaymentMethods.paymentMethod("pm_card_chargeDeclined"))
        .isEqualTo(new PaymentMethod("pm_card_chargeDeclined", "Visa •••• 0002"));
  }

  @Test
  void listsSucceedingMethodsFirst() {
    assertThat(SandboxPaymentMethods.all()).extracting(SandboxPaymentMethod::token).containsExactly(
        "pm_card_visa", "pm_card_mastercard", "pm_card_chargeDeclined",
        "pm_card_chargeDeclinedInsufficientFunds", "pm_card_chargeDeclinedExpiredCard");
    assertThat(SandboxPaymentMethods.all()).filteredOn(SandboxPaymentMethod::succeeds)
        .extracting(SandboxPaymentMethod::token)
        .containsExactly("pm_card_visa", "pm_card_mastercard");
  }

  @Test
  void unknownTokenIsNamed() {
    assertThat(SandboxPaymentMethods.find("pm_card_nope")).isEmpty();
    assertThatThrownBy(() -> SandboxPaymentMethods.paymentMethod("pm_card_nope"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown sandbox payment method: pm_card_nope");
  }
}
