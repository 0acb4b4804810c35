package dev.billing.workflows.subscription;

import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodRefund;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import java.time.Instant;
import java.util.List;

/**
 * The records of money moved at the gateway outside billing's calls: a refund made in the gateway's
 * dashboard, a card dispute opened and won. Pure, like {@link RequestMoneyChanges}; each write
 * carries the period item, so the period, its refunds and the history entry land together.
 */
final class GatewayMoneyChanges {
  private GatewayMoneyChanges() {}

  /**
   * Refunds made at the gateway, added to the period item under their gateway ids. Of the period's
   * own charge they raise its running total and make it REFUNDED (a DISPUTED period stays so until
   * the dispute is decided); of an upgrade's charge the period's status and total are left alone,
   * as for a refund billing made of it.
   */
  static RecordInput refunded(
      Subscription current, Period stored, List<PeriodRefund> made, String detail, Instant at) {
    boolean own = made.get(0).transactionId().equals(stored.transactionId());
    Money sum = Money.zero(stored.amount().currency());
    for (PeriodRefund refund : made) {
      sum = sum.plus(refund.amount());
    }
    Money total =
        !own ? stored.refunded() : stored.refunded() == null ? sum : stored.refunded().plus(sum);
    PeriodStatus status =
        !own || stored.status() == PeriodStatus.DISPUTED ? stored.status() : PeriodStatus.REFUNDED;
    Period period = with(stored, status, stored.failureCode(), stored.failureMessage(), total, at);
    for (PeriodRefund refund : made) {
      period = period.withRefund(refund);
    }
    return write("gateway-refund-", current, period, HistoryEvent.PAYMENT_REFUNDED, detail, at);
  }

  /** The period's charge disputed: DISPUTED, with the dispute's reason, until it is decided. */
  static RecordInput disputed(
      Subscription current,
      Period stored,
      String reason,
      String message,
      String detail,
      Instant at) {
    return write(
        "disputed-",
        current,
        with(stored, PeriodStatus.DISPUTED, reason, message, stored.refunded(), at),
        HistoryEvent.PAYMENT_DISPUTED,
        detail,
        at);
  }

  /** The dispute won: the period is collected again, as it was before it (refunded or not). */
  static RecordInput disputeWon(Subscription current, Period stored, String detail, Instant at) {
    PeriodStatus collected =
        stored.refunded() != null && stored.refunded().greaterThanZero()
            ? PeriodStatus.REFUNDED
            : PeriodStatus.COMPLETED;
    return write(
        "dispute-won-",
        current,
        with(stored, collected, null, null, stored.refunded(), at),
        HistoryEvent.DISPUTE_WON,
        detail,
        at);
  }

  /**
   * An upgrade's charge disputed: the history entry alone, with no period (the period's own charge
   * is not in dispute); the subscription is as it was but for its version.
   */
  static RecordInput upgradeDisputed(Subscription current, String key, String detail, Instant at) {
    return upgradeNote(current, key, "/disputed", HistoryEvent.PAYMENT_DISPUTED, detail, at);
  }

  /** An upgrade charge's dispute won: nothing is owed, the history says so. */
  static RecordInput upgradeDisputeWon(
      Subscription current, String key, String detail, Instant at) {
    return upgradeNote(current, key, "/dispute-won", HistoryEvent.DISPUTE_WON, detail, at);
  }

  private static RecordInput upgradeNote(
      Subscription current,
      String key,
      String kind,
      HistoryEvent event,
      String detail,
      Instant at) {
    return new RecordInput(
        "upgrade/" + key + kind,
        current,
        current.withVersion(current.version() + 1),
        event,
        Process.WEBHOOK,
        SubscriptionChanges.SYSTEM_ACTOR,
        detail,
        null,
        null,
        at);
  }

  private static Period with(
      Period stored,
      PeriodStatus status,
      String failureCode,
      String failureMessage,
      Money refunded,
      Instant at) {
    return new Period(
        stored.accountId(),
        stored.subscriptionId(),
        stored.cycle(),
        stored.dueDate(),
        stored.amount(),
        status,
        stored.attempts(),
        stored.transactionId(),
        failureCode,
        failureMessage,
        at,
        refunded,
        stored.refunds());
  }

  private static RecordInput write(
      String kind,
      Subscription current,
      Period period,
      HistoryEvent event,
      String detail,
      Instant at) {
    return new RecordInput(
        LifecycleChanges.id(kind + period.cycle(), current),
        current,
        current.withVersion(current.version() + 1),
        event,
        Process.WEBHOOK,
        SubscriptionChanges.SYSTEM_ACTOR,
        detail,
        period,
        null,
        at);
  }
}
