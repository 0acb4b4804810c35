package dev.billing.workflows;

import dev.billing.domain.PaymentMethod;
import java.util.Objects;

/**
 * @param paymentMethod the new gateway token and display mask
 * @param requestedBy the principal that asked, kept in the history
 */
public record PaymentMethodChange(PaymentMethod paymentMethod, String requestedBy) {
  public PaymentMethodChange {
    Objects.requireNonNull(paymentMethod, "paymentMethod");
  }
}
