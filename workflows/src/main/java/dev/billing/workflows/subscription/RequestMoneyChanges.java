package dev.billing.workflows.subscription;

import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.PaidUpgradeCharge;
import dev.billing.domain.PendingUpgradeCharge;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodRefund;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.Receipt;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import java.time.Instant;

/**
 * The records of money a client request moves outside the cycle's own charge: refunds (written
 * before they are sent, so a restarted run never sends one as new) and immediate upgrades' charges
 * (pending, resolved, returned, refunded). Pure, like {@link LifecycleChanges}, whose change ids
 * they share.
 */
final class RequestMoneyChanges {
  private RequestMoneyChanges() {}

  /**
   * A refund's key about to be sent: the period item keeps it, before any money moves, so that
   * whatever happens to the run (it ends, it is lost) a retry of the request, or a run restarted
   * from the record, knows the key may have been sent and never sends it as a new refund.
   */
  static RecordInput refundSending(
      Subscription current,
      Period stored,
      PeriodRefund refund,
      String actor,
      String detail,
      Instant at) {
    return periodNote(
        "refund-sending-",
        current,
        HistoryEvent.REFUND_REQUESTED,
        actor,
        detail,
        stored.withRefund(refund),
        at);
  }

  /** The gateway refused a refund: its key is taken off the period, since no money moved. */
  static RecordInput refundRefused(
      Subscription current, Period withoutIt, String actor, String detail, Instant at) {
    return periodNote(
        "refund-refused-", current, HistoryEvent.PAYMENT_FAILED, actor, detail, withoutIt, at);
  }

  /** The period's own charge refunded: its total refunded grows and the refund is marked made. */
  static RecordInput refunded(
      Subscription current,
      Period stored,
      PeriodRefund made,
      String actor,
      String reason,
      Instant at) {
    Money amount = made.amount();
    Money total = stored.refunded() == null ? amount : stored.refunded().plus(amount);
    Period period =
        new Period(
                stored.accountId(),
                stored.subscriptionId(),
                stored.cycle(),
                stored.dueDate(),
                stored.amount(),
                PeriodStatus.REFUNDED,
                stored.attempts(),
                stored.transactionId(),
                null,
                null,
                at,
                total,
                stored.refunds())
            .withRefund(made);
    Subscription next = current.withVersion(current.version() + 1);
    return new RecordInput(
        LifecycleChanges.id("refund-" + stored.cycle(), current),
        current,
        next,
        HistoryEvent.PAYMENT_REFUNDED,
        Process.API,
        actor,
        "refunded "
            + amount
            + " of cycle "
            + stored.cycle()
            + " ("
            + total
            + " of "
            + stored.amount()
            + " in all), refund "
            + made.refundId()
            + (reason == null ? "" : ": " + reason),
        period,
        null,
        at);
  }

  /**
   * An immediate upgrade's charge without an answer: the plan is unchanged, and the subscription
   * item keeps the charge's key until its lookup says what became of it, so a run restarted from
   * the record looks it up too.
   */
  static RecordInput upgradePending(
      Subscription current, PendingUpgradeCharge charge, String actor, String detail, Instant at) {
    Subscription next =
        current
            .withLifecycle(current.lifecycle().withUpgradeCharge(charge))
            .withVersion(current.version() + 1);
    return LifecycleChanges.change(
        "upgrade-pending",
        current,
        next,
        HistoryEvent.PAYMENT_PENDING,
        Process.API,
        actor,
        detail,
        at);
  }

  /**
   * The pending upgrade's lookup answered without the plan changing (dropped, or after the end).
   */
  static RecordInput upgradeResolved(
      Subscription current,
      String what,
      HistoryEvent event,
      Process process,
      String actor,
      String detail,
      Instant at) {
    Subscription next =
        current
            .withLifecycle(current.lifecycle().withUpgradeCharge(null))
            .withVersion(current.version() + 1);
    return LifecycleChanges.change(what, current, next, event, process, actor, detail, at);
  }

  /**
   * An upgrade's charge that succeeded after the subscription ended, the plan never changed: its
   * receipt (the money was taken), the refund of all of it about to be sent (its key on the period
   * it was charged in, as {@link #refundSending} keeps it), the pending upgrade taken off the
   * subscription and the charge kept among its collected upgrade charges (a bank's later return of
   * it is then recorded), in one write, so that no restart of the run either forgets the charge or
   * sends the refund as new.
   */
  static RecordInput upgradeChargedAfterEnd(
      Subscription current,
      Period withRefund,
      Receipt receipt,
      PaidUpgradeCharge paid,
      String detail,
      Instant at) {
    Subscription next =
        current
            .withLifecycle(current.lifecycle().withUpgradeCharge(null).withUpgradePaid(paid))
            .withVersion(current.version() + 1);
    return new RecordInput(
        LifecycleChanges.id("upgrade-after-end", current),
        current,
        next,
        HistoryEvent.REFUND_REQUESTED,
        Process.RECONCILIATION,
        SubscriptionChanges.SYSTEM_ACTOR,
        detail,
        withRefund,
        receipt,
        at);
  }

  /**
   * An upgrade's charge came back after the plan changed: the plan stays, the amount is owed again
   * with the next charge (the balance), and a reversing receipt (the amount negated, same
   * transaction) says the first one no longer stands; all in one write.
   */
  static RecordInput upgradeReturned(
      Subscription current, Money owed, Receipt reversal, String key, String detail, Instant at) {
    Money balance = current.lifecycle().balance();
    Subscription next =
        current
            .withLifecycle(
                current
                    .lifecycle()
                    .withoutUpgradePaid(key)
                    .withBalance(
                        owed == null ? balance : balance == null ? owed : balance.plus(owed)))
            .withVersion(current.version() + 1);
    return new RecordInput(
        "upgrade/" + key + "/returned",
        current,
        next,
        HistoryEvent.PAYMENT_RETURNED,
        Process.WEBHOOK,
        SubscriptionChanges.SYSTEM_ACTOR,
        detail,
        null,
        reversal,
        at);
  }

  /**
   * A refund of an upgrade's prorated charge: not the period's own charge, so the period's status
   * and refunded total are left alone; the refund is kept on the period item beside its own, where
   * the ledger reads what was refunded of the upgrade's charge.
   */
  static RecordInput upgradeRefunded(
      Subscription current,
      Period stored,
      PeriodRefund made,
      String actor,
      String reason,
      Instant at) {
    String detail =
        "refunded "
            + made.amount()
            + " of the upgrade charge "
            + made.transactionId()
            + " in cycle "
            + stored.cycle()
            + ", refund "
            + made.refundId()
            + (reason == null ? "" : ": " + reason);
    return periodNote(
        "refund-upgrade-",
        current,
        HistoryEvent.PAYMENT_REFUNDED,
        actor,
        detail,
        stored.withRefund(made),
        at);
  }

  /**
   * A client's change of one period item that leaves the subscription as it is but for its version;
   * the change id names the kind and the period.
   */
  private static RecordInput periodNote(
      String kind,
      Subscription current,
      HistoryEvent event,
      String actor,
      String detail,
      Period period,
      Instant at) {
    return new RecordInput(
        LifecycleChanges.id(kind + period.cycle(), current),
        current,
        current.withVersion(current.version() + 1),
        event,
        Process.API,
        actor,
        detail,
        period,
        null,
        at);
  }
}
