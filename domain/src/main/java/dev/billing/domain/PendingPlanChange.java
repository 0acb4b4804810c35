package dev.billing.domain;

import java.util.Objects;

/**
 * A plan change that takes effect with a later cycle's charge.
 *
 * @param effectiveCycle the first cycle billed at the new price
 * @param term the term billed from that cycle on; null when the term stays
 */
public record PendingPlanChange(String sku, Money price, long effectiveCycle, Term term) {
  public PendingPlanChange {
    Objects.requireNonNull(sku, "sku");
    Objects.requireNonNull(price, "price");
  }

  /** A change of sku and price only. */
  public PendingPlanChange(String sku, Money price, long effectiveCycle) {
    this(sku, price, effectiveCycle, null);
  }
}
