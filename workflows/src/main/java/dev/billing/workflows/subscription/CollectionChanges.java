package dev.billing.workflows.subscription;

import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.Receipt;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.workflows.PaymentMethodChange;
import java.time.Instant;

/**
 * The changes of collecting one period beyond its first attempt: retries, settlement, returns, a
 * new payment method. Pure, like {@link SubscriptionChanges}. A change about an earlier period
 * keeps the subscription on the cycle it is on (its dates moved on with the first attempt); {@code
 * advance} is true only for the first attempt of the cycle the subscription is on.
 */
final class CollectionChanges {
  private CollectionChanges() {}

  /** Change id of a later step about one attempt, e.g. "cycle-3/charge-2/settled". */
  static String changeId(long cycle, int attempt, String suffix) {
    String step = SubscriptionChanges.chargeStep(attempt);
    return SubscriptionChanges.changeId(cycle, suffix == null ? step : step + "/" + suffix);
  }

  /** Period collected by a retry, a settlement or a lookup. */
  static RecordInput collected(
      Subscription current,
      long cycle,
      Money amount,
      int attempt,
      String transactionId,
      Instant processedAt,
      SubscriptionStatus status,
      Process process,
      String changeId,
      String detail,
      Instant at) {
    Instant when = processedAt != null ? processedAt : at;
    Subscription next =
        current.withStatus(status).withLastPaymentAt(when).withVersion(current.version() + 1);
    Period period =
        SubscriptionChanges.period(
            current, cycle, PeriodStatus.COMPLETED, attempt, transactionId, null, null, at, amount);
    Receipt receipt =
        new Receipt(
            current.accountId(),
            current.subscriptionId(),
            cycle,
            current.sku(),
            current.email(),
            amount,
            when,
            transactionId,
            current.paymentMethod().mask(),
            null);
    return new RecordInput(
        changeId,
        current,
        next,
        HistoryEvent.PAYMENT_SUCCEEDED,
        process,
        SubscriptionChanges.SYSTEM_ACTOR,
        detail,
        period,
        receipt,
        at);
  }

  /** Charge accepted, settling later (bank debit): no receipt until it settles. */
  static RecordInput pending(
      Subscription current,
      long cycle,
      Money amount,
      int attempt,
      String transactionId,
      boolean advance,
      Process process,
      String changeId,
      String detail,
      Instant at) {
    Subscription moved = advance ? current.withBalanceCharged().scheduledFor(cycle + 1) : current;
    Subscription next = moved.withVersion(current.version() + 1);
    Period period =
        SubscriptionChanges.period(
            current,
            cycle,
            PeriodStatus.PENDING_SETTLEMENT,
            attempt,
            transactionId,
            null,
            null,
            at,
            amount);
    return new RecordInput(
        changeId,
        current,
        next,
        HistoryEvent.PAYMENT_PENDING,
        process,
        SubscriptionChanges.SYSTEM_ACTOR,
        detail,
        period,
        null,
        at);
  }

  /**
   * Period unpaid (a failed attempt, a failed or returned settlement): ERROR, subscription PAST_DUE
   * (CANCELLED when it settles after a cancellation).
   */
  static RecordInput unpaid(
      Subscription current,
      long cycle,
      Money amount,
      int attempts,
      String failureCode,
      String failureMessage,
      HistoryEvent event,
      boolean advance,
      Process process,
      String changeId,
      String detail,
      Instant at) {
    // A cancelled subscription stays cancelled, a paused one paused: only the period is recorded.
    Subscription moved =
        current.status().isTerminal() || current.status() == SubscriptionStatus.PAUSED
            ? current
            : current.withStatus(SubscriptionStatus.PAST_DUE);
    if (advance) {
      moved = moved.withBalanceCharged().scheduledFor(cycle + 1);
    }
    Subscription next = moved.withVersion(current.version() + 1);
    Period period =
        SubscriptionChanges.period(
            current,
            cycle,
            PeriodStatus.ERROR,
            attempts,
            null,
            failureCode,
            failureMessage,
            at,
            amount);
    return new RecordInput(
        changeId,
        current,
        next,
        event,
        process,
        SubscriptionChanges.SYSTEM_ACTOR,
        detail,
        period,
        null,
        at);
  }

  /** Only the token and mask change; the id is unique per version, so every change is recorded. */
  static RecordInput paymentMethodChanged(
      Subscription current, PaymentMethodChange change, Instant at) {
    long version = current.version() + 1;
    Subscription next = current.withPaymentMethod(change.paymentMethod()).withVersion(version);
    String actor =
        change.requestedBy() == null || change.requestedBy().isBlank()
            ? SubscriptionChanges.API_ACTOR
            : change.requestedBy();
    return new RecordInput(
        "payment-method/v" + version,
        current,
        next,
        HistoryEvent.PAYMENT_METHOD_CHANGED,
        Process.API,
        actor,
        "payment method changed from "
            + current.paymentMethod().mask()
            + " to "
            + change.paymentMethod().mask(),
        null,
        null,
        at);
  }
}
