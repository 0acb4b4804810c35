package dev.billing.activities.payments.sandbox;

import dev.billing.activities.payments.DeclineCodes;
import dev.billing.activities.payments.DeclineKind;
import dev.billing.domain.PaymentMethod;
import java.util.Objects;

/**
 * One test payment method of the sandbox gateway, named after Stripe's test-mode tokens where
 * Stripe has one. {@link SandboxPaymentMethods} documents what each does.
 *
 * @param mask what a receipt shows, e.g. "Visa •••• 4242"
 * @param count N of the parametrised behaviours (declined attempts, errors in a row); 0 otherwise
 * @param declineCode the decline it answers (always for DECLINES, for the first N attempts of
 *     RECOVERS_AFTER); null otherwise
 * @param declineMessage null exactly when declineCode is
 */
public record SandboxPaymentMethod(
    String token,
    String mask,
    Behaviour behaviour,
    int count,
    String declineCode,
    String declineMessage) {

  /** What charging it does; see the table in {@link SandboxPaymentMethods}. */
  public enum Behaviour {
    SUCCEEDS,
    DECLINES,
    RECOVERS_AFTER,
    TRANSIENT_ERRORS,
    SERVER_ERROR,
    TIMEOUT_AFTER_CHARGE,
    BANK_DEBIT,
    BANK_DEBIT_RETURNED,
    DISPUTED
  }

  public SandboxPaymentMethod {
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(mask, "mask");
    Objects.requireNonNull(behaviour, "behaviour");
    if ((declineCode == null) != (declineMessage == null)) {
      throw new IllegalArgumentException("a decline needs both a code and a message");
    }
    boolean declines = behaviour == Behaviour.DECLINES || behaviour == Behaviour.RECOVERS_AFTER;
    if (declines != (declineCode != null)) {
      throw new IllegalArgumentException(
          behaviour + " must " + (declines ? "" : "not ") + "have a decline code");
    }
    if (count < 0) {
      throw new IllegalArgumentException("count must not be negative");
    }
  }

  /** Every charge to it succeeds at once, on the first call. */
  public boolean succeeds() {
    return behaviour == Behaviour.SUCCEEDS;
  }

  /** Charges to it settle later (bank debits). */
  public boolean settlesLater() {
    return behaviour == Behaviour.BANK_DEBIT || behaviour == Behaviour.BANK_DEBIT_RETURNED;
  }

  /** The kind of its decline; null when it never declines. */
  public DeclineKind declineKind() {
    return declineCode == null ? null : DeclineCodes.kindOf(declineCode);
  }

  public PaymentMethod paymentMethod() {
    return new PaymentMethod(token, mask);
  }
}
