package dev.billing.activities.views;

import dev.billing.domain.PendingPlanChange;

/**
 * A plan change held for a later period.
 *
 * @param effectiveCycle the first period billed at the new price
 */
public record PendingChangeView(String sku, String amount, String currency, long effectiveCycle) {

  public static PendingChangeView of(PendingPlanChange change) {
    return change == null
        ? null
        : new PendingChangeView(
            change.sku(),
            change.price().toPlainString(),
            change.price().currency(),
            change.effectiveCycle());
  }
}
