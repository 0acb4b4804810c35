package dev.billing.activities.views;

import dev.billing.domain.PendingPlanChange;
import dev.billing.domain.Term;

/**
 * A plan change held for a later period.
 *
 * @param effectiveCycle the first period billed at the new price
 * @param term the term billed from that period on (MONTHLY or YEARLY)
 */
public record PendingChangeView(
    String sku, String amount, String currency, long effectiveCycle, String term) {

  /**
   * @param current the subscription's term, which a change without a term of its own keeps
   */
  public static PendingChangeView of(PendingPlanChange change, Term current) {
    return change == null
        ? null
        : new PendingChangeView(
            change.sku(),
            change.price().toPlainString(),
            change.price().currency(),
            change.effectiveCycle(),
            (change.term() == null ? current : change.term()).name());
  }
}
