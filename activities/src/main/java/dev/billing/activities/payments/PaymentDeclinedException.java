package dev.billing.activities.payments;

import java.util.Objects;

/** The charge was refused (by the issuer or the gateway's rules). A final answer for this request. */
public class PaymentDeclinedException extends PaymentGatewayException {
  private final String code;

  /**
   * @param code the gateway's decline code, e.g. "card_declined", "insufficient_funds"
   * @param message the gateway's message, fit to show an operator
   */
  public PaymentDeclinedException(String code, String message) {
    super(message, null);
    this.code = Objects.requireNonNull(code, "code");
  }

  public String code() {
    return code;
  }
}
