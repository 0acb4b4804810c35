package dev.billing.workflows;

import dev.billing.domain.PaymentMethod;
import java.util.Objects;

/**
 * @param paymentMethod the new gateway token and display mask
 * @param requestedBy the principal that asked, kept in the history
 * @param requestId the client's request id (see {@link UpdateRequest}); null until given one
 */
public record PaymentMethodChange(PaymentMethod paymentMethod, String requestedBy, String requestId)
    implements UpdateRequest<PaymentMethodChange> {
  public PaymentMethodChange {
    Objects.requireNonNull(paymentMethod, "paymentMethod");
  }

  public PaymentMethodChange(PaymentMethod paymentMethod, String requestedBy) {
    this(paymentMethod, requestedBy, null);
  }

  @Override
  public PaymentMethodChange withRequestId(String id) {
    return new PaymentMethodChange(paymentMethod, requestedBy, id);
  }
}
