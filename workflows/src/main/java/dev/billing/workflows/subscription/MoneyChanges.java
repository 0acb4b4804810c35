package dev.billing.workflows.subscription;

import dev.billing.domain.BillingIds;
import dev.billing.workflows.PendingRefund;
import dev.billing.workflows.PendingUpgrade;
import dev.billing.workflows.UpdateRequest;
import io.temporal.workflow.Workflow;
import java.util.List;

/**
 * The money a client request moves: an immediate upgrade's prorated charge and refunds (asked for,
 * or the unused part at an immediate cancellation). Every gateway key derives from the request's id
 * ({@link BillingIds}), so a retry of the request can never move money twice, whatever was written
 * in between. An outcome the gateway does not give is never guessed: the change is recorded pending
 * ({@link RequestLog}) and resolved on a durable timer by asking the gateway (the upgrade: the
 * exact charge lookup; a refund: the same send again within the gateway's replay window).
 */
final class MoneyChanges {
  final Upgrades upgrades;
  final Refunds refunds;
  final UnusedDaysRefunds unusedDays;
  private final RequestLog requests;

  MoneyChanges(RunState run, Gateway gateway) {
    this.refunds = new Refunds(run, gateway);
    this.unusedDays = new UnusedDaysRefunds(run, gateway, refunds);
    this.upgrades = new Upgrades(run, gateway, refunds);
    this.requests = run.requests;
  }

  /** A timer of a change whose money is unknown fired: ask the gateway (on the main thread). */
  void resolvePending(String requestId) {
    // Taken before the upgrades are resolved: a refund an upgrade's resolution sends, without an
    // answer, has just been sent and armed a timer of its own.
    List<PendingRefund> due = requests.refunds(requestId);
    for (PendingUpgrade upgrade : requests.upgrades(requestId)) {
      upgrades.resolveUpgrade(upgrade);
    }
    for (PendingRefund refund : due) {
      refunds.resolveRefund(refund);
    }
  }

  /** The request's id; an update always has one (its own), this only guards a caller without. */
  static String requestIdOf(UpdateRequest<?> request) {
    return request.requestId() != null ? request.requestId() : Workflow.randomUUID().toString();
  }
}
