package dev.billing.workflows;

import dev.billing.domain.Money;
import java.util.Objects;

/**
 * A new plan (sku and price, in the subscription's currency).
 *
 * @param effective NOW prorates the difference over the rest of the paid period (an increase is
 *     charged at once, a decrease is credited to the next charge); PERIOD_END holds the change
 *     until the next cycle's charge
 * @param requestedBy the principal that asked, kept in the history
 * @param requestId the client's request id (see {@link UpdateRequest}); null until given one
 */
public record PlanChangeRequest(
    String sku, Money price, Effective effective, String requestedBy, String requestId)
    implements UpdateRequest<PlanChangeRequest> {

  public enum Effective {
    NOW,
    PERIOD_END
  }

  public PlanChangeRequest {
    Objects.requireNonNull(sku, "sku");
    Objects.requireNonNull(price, "price");
    Objects.requireNonNull(effective, "effective");
  }

  public PlanChangeRequest(String sku, Money price, Effective effective, String requestedBy) {
    this(sku, price, effective, requestedBy, null);
  }

  @Override
  public PlanChangeRequest withRequestId(String id) {
    return new PlanChangeRequest(sku, price, effective, requestedBy, id);
  }
}
