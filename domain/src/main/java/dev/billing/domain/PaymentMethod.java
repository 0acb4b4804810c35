package dev.billing.domain;

import java.util.Objects;

/**
 * A payment method as the gateway knows it: an opaque token (e.g. "pm_card_visa") and a display
 * mask for receipts ("Visa •••• 4242"). Never a card or account number.
 */
public record PaymentMethod(String token, String mask) {
  public PaymentMethod {
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(mask, "mask");
  }
}
