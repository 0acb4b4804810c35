package dev.billing.workflows;

import dev.billing.domain.Money;
import java.util.Objects;

/**
 * A new plan (sku and price, in the subscription's currency).
 *
 * @param effective NOW prorates the difference over the rest of the paid period (an increase is
 *     charged at once, a decrease is credited to the next charge); PERIOD_END holds the change until
 *     the next cycle's charge
 * @param requestedBy the principal that asked, kept in the history
 */
public record PlanChangeRequest(String sku, Money price, Effective effective, String requestedBy) {

  public enum Effective { NOW, PERIOD_END }

  public PlanChangeRequest {
    Objects.requireNonNull(sku, "sku");
    Objects.requireNonNull(price, "price");
    Objects.requireNonNull(effective, "effective");
  }
}
