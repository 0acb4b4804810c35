package dev.billing.api.ops;

import dev.billing.activities.views.Timestamps;
import dev.billing.domain.reconciliation.Finding;

/** One finding of a report, with what the run did about it. */
public record FindingView(
    String kind,
    String check,
    String subscriptionId,
    String accountId,
    Long cycle,
    String reference,
    String detail,
    String repair,
    String at) {

  public static FindingView of(Finding f) {
    return new FindingView(
        f.kind().name(),
        f.kind().check().name(),
        f.subscriptionId(),
        f.accountId(),
        f.cycle(),
        f.reference(),
        f.detail(),
        f.repair().name(),
        Timestamps.instant(f.at()));
  }
}
