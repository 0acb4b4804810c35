package dev.billing.activities.payments.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.activities.payments.DeclineKind;
import dev.billing.activities.payments.sandbox.SandboxPaymentMethod.Behaviour;
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
  void listsSucceedingMethodsFirstThenDeclinesThenScriptedOnes() {
    assertThat(SandboxPaymentMethods.all())
        .extracting(SandboxPaymentMethod::token)
        .containsExactly(
            "pm_card_visa",
            "pm_card_mastercard",
            "pm_card_chargeDeclined",
            "pm_card_chargeDeclinedInsufficientFunds",
            "pm_card_chargeDeclinedExpiredCard",
            "pm_sandbox_recoversAfter_2",
            "pm_sandbox_transientErrors_2",
            "pm_sandbox_serverError",
            "pm_sandbox_timeoutAfterCharge",
            "pm_sandbox_bankDebit",
            "pm_sandbox_bankDebitReturned",
            "pm_sandbox_disputed");
    assertThat(SandboxPaymentMethods.all())
        .filteredOn(SandboxPaymentMethod::succeeds)
        .extracting(SandboxPaymentMethod::token)
        .containsExactly("pm_card_visa", "pm_card_mastercard");
    assertThat(SandboxPaymentMethods.all())
        .filteredOn(SandboxPaymentMethod::settlesLater)
        .extracting(SandboxPaymentMethod::mask)
        .containsExactly("Bank account •••• 6789", "Bank account •••• 2227");
  }

  @Test
  void classifiesDeclinesHardOrSoft() {
    assertThat(SandboxPaymentMethods.find("pm_card_chargeDeclined").orElseThrow().declineKind())
        .isEqualTo(DeclineKind.HARD);
    assertThat(
            SandboxPaymentMethods.find("pm_card_chargeDeclinedExpiredCard")
                .orElseThrow()
                .declineKind())
        .isEqualTo(DeclineKind.HARD);
    assertThat(
            SandboxPaymentMethods.find("pm_card_chargeDeclinedInsufficientFunds")
                .orElseThrow()
                .declineKind())
        .isEqualTo(DeclineKind.SOFT);
    assertThat(SandboxPaymentMethods.find("pm_sandbox_recoversAfter_3").orElseThrow().declineKind())
        .isEqualTo(DeclineKind.SOFT);
    assertThat(SandboxPaymentMethods.find("pm_card_visa").orElseThrow().declineKind()).isNull();
  }

  @Test
  void parsesTheCountOfParametrisedTokens() {
    assertThat(SandboxPaymentMethods.find("pm_sandbox_recoversAfter_3"))
        .get()
        .isEqualTo(
            new SandboxPaymentMethod(
                "pm_sandbox_recoversAfter_3",
                "Visa •••• 1881",
                Behaviour.RECOVERS_AFTER,
                3,
                "insufficient_funds",
                "Your card has insufficient funds."));
    assertThat(SandboxPaymentMethods.find("pm_sandbox_transientErrors_0"))
        .get()
        .isEqualTo(
            new SandboxPaymentMethod(
                "pm_sandbox_transientErrors_0",
                "Mastercard •••• 8210",
                Behaviour.TRANSIENT_ERRORS,
                0,
                null,
                null));
    assertThat(SandboxPaymentMethods.find("pm_sandbox_transientErrors_100"))
        .get()
        .extracting(SandboxPaymentMethod::count)
        .isEqualTo(100);
    assertThat(SandboxPaymentMethods.recoversAfter(2)).isEqualTo("pm_sandbox_recoversAfter_2");
  }

  @Test
  void refusesNonCanonicalOrOutOfRangeCounts() {
    assertThat(SandboxPaymentMethods.find("pm_sandbox_recoversAfter_02")).isEmpty();
    assertThat(SandboxPaymentMethods.find("pm_sandbox_recoversAfter_")).isEmpty();
    assertThat(SandboxPaymentMethods.find("pm_sandbox_recoversAfter_-1")).isEmpty();
    assertThat(SandboxPaymentMethods.find("pm_sandbox_recoversAfter_x")).isEmpty();
    assertThat(SandboxPaymentMethods.find("pm_sandbox_transientErrors_101")).isEmpty();
    assertThatThrownBy(() -> SandboxPaymentMethods.transientErrors(101))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void unknownTokenIsNamed() {
    assertThat(SandboxPaymentMethods.find("pm_card_nope")).isEmpty();
    assertThatThrownBy(() -> SandboxPaymentMethods.paymentMethod("pm_card_nope"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown sandbox payment method: pm_card_nope");
  }
}
