package dev.billing.bench.batch;

import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.store.BillingStore;
import dev.billing.workflows.activities.ChargeResult;
import dev.billing.workflows.subscription.SubscriptionChanges;
import java.time.Instant;
import java.util.List;

/**
 * The store's ceiling for the charge's transaction shape: the same TransactWriteItems (subscription
 * put conditional on its version, history entry, period, receipt) through the same store code, as
 * fast as the threads can send them, with nothing else: no query, no read, no gateway, no Temporal.
 */
public final class StoreCeiling {
  private StoreCeiling() {}

  /** Writes cycle {@code current.cycle()} paid for every subscription; returns them as written. */
  public static List<Subscription> payAll(
      BillingStore store, List<Subscription> current, int threads, Instant at) {
    List<RecordInput> changes =
        current.stream()
            .map(
                sub ->
                    SubscriptionChanges.paid(
                        sub,
                        1,
                        new ChargeResult(
                            "ch_ceiling_" + sub.subscriptionId() + "_" + sub.cycle(), at, false),
                        at))
            .toList();
    return Parallel.map(
        changes,
        threads,
        change -> {
          store.updateSubscription(change);
          return change.next();
        });
  }
}
