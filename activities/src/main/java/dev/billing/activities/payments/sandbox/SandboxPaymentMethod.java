package dev.billing.activities.payments.sandbox;

import dev.billing.domain.PaymentMethod;
import java.util.Objects;

/**
 * One test payment method of the sandbox gateway, named after Stripe's test-mode tokens.
 *
 * @param mask what a receipt shows, e.g. "Visa •••• 4242"
 * @param declineCode null when charges to it succeed
 * @param declineMessage null when charges to it succeed
 */
public record SandboxPaymentMethod(
    String token, String mask, String declineCode, String declineMessage) {

  public SandboxPaymentMethod {
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(mask, "mask");
    if ((declineCode == null) != (declineMessage == null)) {
      throw new IllegalArgumentException("a decline needs both a code and a message");
    }
  }

  public boolean succeeds() {
    return declineCode == null;
  }

  public PaymentMethod paymentMethod() {
    return new PaymentMethod(token, mask);
  }
}
