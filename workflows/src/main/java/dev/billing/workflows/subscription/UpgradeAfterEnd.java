package dev.billing.workflows.subscription;

import dev.billing.domain.BillingIds;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodRefund;
import dev.billing.domain.Process;
import dev.billing.domain.Receipt;
import dev.billing.domain.Subscription;
import dev.billing.workflows.PendingRefund;
import dev.billing.workflows.PendingUpgrade;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.UpgradeCharge;
import dev.billing.workflows.activities.RefundInput;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.time.LocalDate;
import org.slf4j.Logger;

/**
 * An immediate upgrade's charge that succeeded once the subscription had ended: the plan never
 * changed, so the customer paid for nothing and gets all of it back. The refund's key derives from
 * the upgrade's own request ({@link BillingIds#refundKey}), so neither a replay, a restart from the
 * record nor the same charge found twice refunds twice; it is written to the period the upgrade was
 * charged in, with the charge's receipt, before it is sent ({@link
 * RequestMoneyChanges#upgradeChargedAfterEnd}), and then goes the way of every refund ({@link
 * Refunds}): resent with the same key while it has no answer, left to an operator if refused.
 */
final class UpgradeAfterEnd {
  private static final Logger log = Workflow.getLogger(UpgradeAfterEnd.class);

  private final RunState run;
  private final Gateway gateway;
  private final Refunds refunds;

  UpgradeAfterEnd(RunState run, Gateway gateway, Refunds refunds) {
    this.run = run;
    this.gateway = gateway;
    this.refunds = refunds;
  }

  void refund(PendingUpgrade upgrade, Receipt charged) {
    Subscription sub = run.current();
    long cycle = upgrade.paidCycle();
    String key = BillingIds.refundKey(sub.subscriptionId(), cycle, upgrade.requestId());
    String transactionId = charged.transactionId();
    Period period = gateway.load(sub, cycle);
    PeriodRefund known = period.refund(key);
    if (known != null && known.made()) {
      run.outcome(
          "the upgrade charge " + transactionId + " was refunded already: " + known.refundId());
      return;
    }
    Instant sentFrom = known != null ? known.sentAt() : now();
    RefundInput input =
        RefundInput.of(sub, cycle)
            .ofCharge(transactionId)
            .amount(upgrade.amount())
            .idempotencyKey(key)
            .reason(
                "the upgrade to "
                    + upgrade.sku()
                    + " was never applied: the subscription ended before its charge settled")
            .build();
    PendingRefund pending =
        new PendingRefund(
            upgrade.requestId(),
            input,
            transactionId,
            SubscriptionChanges.SYSTEM_ACTOR,
            sentFrom,
            0);
    if (known == null) {
      PeriodRefund asked =
          new PeriodRefund(
              key, upgrade.requestId(), transactionId, upgrade.amount(), sentFrom, null);
      period = period.withRefund(asked);
      // Known as a collected upgrade charge, so that a bank's later return of it is recorded.
      UpgradeCharge paid =
          new UpgradeCharge(
              cycle,
              transactionId,
              upgrade.amount(),
              today(sub),
              today(sub),
              upgrade.idempotencyKey());
      run.requests.upgradeCharged(paid);
      run.phase(Phase.RECORDING_PAYMENT);
      run.record(
          RequestMoneyChanges.upgradeChargedAfterEnd(
              sub,
              period,
              charged,
              paid.toRecord(),
              "the upgrade charge "
                  + upgrade.idempotencyKey()
                  + " of "
                  + upgrade.amount()
                  + " succeeded ("
                  + transactionId
                  + ") after the subscription ended; the plan was not changed, so all of it is"
                  + " refunded with key "
                  + key,
              now()));
    } else if (!Refunds.resendable(pending)) {
      // A restart found the key on the period long after it was first sent: sending it again
      // could make a second refund.
      String detail = Refunds.unresolvedSentence(pending);
      log.error("UPGRADE REFUND UNRESOLVED subscription {}: {}", sub.subscriptionId(), detail);
      run.outcome(detail);
      return;
    }
    try {
      refunds.refundOrAwait(pending, period);
    } catch (ApplicationFailure refused) {
      String detail =
          "the upgrade charge "
              + transactionId
              + " of "
              + upgrade.amount()
              + " taken after the subscription ended was not refunded ("
              + refused.getOriginalMessage()
              + "): check the charge at the gateway and, if it still holds the money, refund it"
              + " by hand";
      log.error("UPGRADE REFUND REFUSED subscription {}: {}", sub.subscriptionId(), detail);
      run.record(
          LifecycleChanges.note(
              run.current(),
              "upgrade-refund-refused-" + cycle,
              HistoryEvent.PAYMENT_FAILED,
              Process.RECONCILIATION,
              SubscriptionChanges.SYSTEM_ACTOR,
              detail,
              now()));
      run.outcome(detail);
    }
  }

  private static LocalDate today(Subscription sub) {
    return sub.schedule().dateAt(now());
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
