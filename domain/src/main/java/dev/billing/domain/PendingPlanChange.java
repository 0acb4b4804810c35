package dev.billing.domain;

import java.util.Objects;

/**
 * A plan change that takes effect with a later cycle's charge.
 *
 * @param effectiveCycle the first cycle billed at the new price
 */
public record PendingPlanChange(String sku, Money price, long effectiveCycle) {
  public PendingPlanChange {
    Objects.requireNonNull(sku, "sku");
    Objects.requireNonNull(price, "price");
  }
}
