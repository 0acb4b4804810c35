package dev.billing.activities.payments;

import java.util.Objects;

/**
 * The charge was refused (by the issuer or the gateway's rules). A final answer for this request.
 */
public class PaymentDeclinedException extends PaymentGatewayException {
  private final String code;
  private final DeclineKind kind;

  /**
   * @param code the most specific reason the gateway gave, e.g. "insufficient_funds",
   *     "generic_decline", "card_declined", "expired_card"
   * @param message the gateway's message, fit to show an operator
   * @param kind whether a later retry of the same payment method can succeed
   */
  public PaymentDeclinedException(String code, String message, DeclineKind kind) {
    super(message, null);
    this.code = Objects.requireNonNull(code, "code");
    this.kind = Objects.requireNonNull(kind, "kind");
  }

  /** A decline whose kind follows from its code ({@link DeclineCodes#kindOf(String)}). */
  public PaymentDeclinedException(String code, String message) {
    this(code, message, DeclineCodes.kindOf(code));
  }

  public String code() {
    return code;
  }

  public DeclineKind kind() {
    return kind;
  }

  /** True when retrying the same payment method cannot help: skip dunning, ask for a new one. */
  public boolean hard() {
    return kind == DeclineKind.HARD;
  }
}
