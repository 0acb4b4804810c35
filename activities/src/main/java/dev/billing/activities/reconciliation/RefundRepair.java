package dev.billing.activities.reconciliation;

import dev.billing.activities.ledger.LedgerViolation;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.domain.GatewayRefunds;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentEvent;
import dev.billing.domain.Period;
import dev.billing.domain.reconciliation.FindingKind;
import dev.billing.domain.reconciliation.Repair;

/**
 * A charge the gateway shows more refunded of than the records: a refund made in the gateway's
 * dashboard whose webhook never came (or was refused). Repaired exactly as the webhook would have:
 * the charge's refunded total (and the refunds the gateway listed with it) is sent to the running
 * workflow as a CHARGE_REFUNDED event, or, the subscription having ended, its workflow is started
 * again from the record with it. The workflow adds only what the period does not hold, never above
 * that total, so a refund the webhook brings as well is counted once. The event's id names the
 * total ({@link GatewayOutcomes#refunded}), so the next run finding the same gap sends the same id,
 * which the workflow ignores, and reports it instead.
 */
final class RefundRepair {
  private final SubscriptionWorkflowOps workflows;
  private final String provider;

  RefundRepair(SubscriptionWorkflowOps workflows, String provider) {
    this.workflows = workflows;
    this.provider = provider;
  }

  void repair(
      GatewayChargeState charge,
      String account,
      Period period,
      LedgerViolation violation,
      DayCheckInput input,
      FindingLog log) {
    Money refunded =
        charge.refunded() == null ? Money.zero(charge.amount().currency()) : charge.refunded();
    Money recorded =
        period == null
            ? Money.zero(refunded.currency())
            : GatewayRefunds.recorded(period, charge.transactionId());
    Long cycle = period != null ? Long.valueOf(period.cycle()) : violation.cycle();
    if (refunded.minor() <= recorded.minor()) {
      log.add(
          FindingKind.LEDGER_MISMATCH,
          charge.subscriptionId(),
          account,
          cycle,
          charge.transactionId(),
          violation.detail()
              + "; the records show more refunded than the"
              + " gateway: find the refund the records name before refunding anything",
          Repair.NONE);
      return;
    }
    String situation =
        "the gateway refunded "
            + refunded
            + " of "
            + charge.transactionId()
            + ", "
            + (period == null
                ? "the records do not show it (" + violation.detail() + ")"
                : "period "
                    + period.cycle()
                    + " records "
                    + (recorded.greaterThanZero()
                        ? recorded + " refunded of it"
                        : "no refund of it"))
            + ": a refund made outside billing (the gateway's dashboard) whose event did not arrive";
    if (!input.repair()) {
      log.add(
          FindingKind.REFUND_NOT_RECORDED,
          charge.subscriptionId(),
          account,
          cycle,
          charge.transactionId(),
          situation + " (report only)",
          Repair.NONE);
      return;
    }
    PaymentEvent event = GatewayOutcomes.refunded(provider, charge, input.asOf());
    try {
      Repair done;
      String what;
      if (workflows.describe(charge.subscriptionId()).state() == WorkflowView.State.RUNNING) {
        if (workflows.received(charge.subscriptionId(), event.eventId())) {
          done = Repair.NONE;
          what = GatewayOutcomes.unchanged(event);
        } else {
          workflows.send(event);
          done = Repair.WORKFLOW_SIGNALLED;
          what = GatewayOutcomes.signalled(event);
        }
      } else if (workflows.startEnded(event)) {
        done = Repair.WORKFLOW_RESTARTED;
        what =
            "the subscription has ended: its workflow was started again from the record with "
                + event.eventId()
                + " to record the refund";
      } else {
        done = Repair.NONE;
        what =
            "no running workflow to tell and no ended subscription to start: the drift check"
                + " restarts a missing run, and the next run of this check sends the refund to it";
      }
      log.add(
          FindingKind.REFUND_NOT_RECORDED,
          charge.subscriptionId(),
          account,
          cycle,
          charge.transactionId(),
          situation + "; " + what,
          done);
    } catch (RuntimeException e) {
      log.add(
          FindingKind.REFUND_NOT_RECORDED,
          charge.subscriptionId(),
          account,
          cycle,
          charge.transactionId(),
          situation + "; telling the workflow failed: " + e.getMessage(),
          Repair.FAILED);
    }
  }
}
