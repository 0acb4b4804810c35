package dev.billing.bench.batch;

import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.Receipt;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.workflows.activities.ChargeResult;
import dev.billing.workflows.activities.RecordInput;
import java.time.Instant;

/**
 * The records the workflow writes (workflows' SubscriptionChanges: creation, reminder sent, first
 * attempt paid), built the same way for the paths without a workflow, so that the batch baseline and
 * the ceiling write exactly the transaction the workflow writes: subscription, history entry,
 * period and receipt.
 */
public final class BatchChanges {
  private static final String SYSTEM = "system";

  private BatchChanges() {}

  public static RecordInput creation(Subscription requested, Instant at) {
    Subscription next = requested.scheduledFor(requested.cycle()).withVersion(1);
    return new RecordInput("create", null, next, HistoryEvent.SUBSCRIPTION_CREATED, Process.API,
        "api", "subscription created; first payment due " + next.nextPaymentDate(), null, null, at);
  }

  public static RecordInput reminderSent(Subscription current, String messageId, Instant at) {
    long cycle = current.cycle();
    Subscription next = current.withReminderSent(at).withVersion(current.version() + 1);
    return new RecordInput("cycle-" + cycle + "/reminder", current, next, HistoryEvent.REMINDER_SENT,
        Process.REMINDER, SYSTEM,
        "reminder " + messageId + " for the payment due " + current.schedule().dueDate(cycle),
        null, null, at);
  }

  /** Attempt 1 of the cycle the subscription is on succeeded: period COMPLETED, receipt, next cycle. */
  public static RecordInput paid(Subscription current, ChargeResult charge, Instant at) {
    long cycle = current.cycle();
    Money amount = current.amountDue();
    Instant processedAt = charge.processedAt() != null ? charge.processedAt() : at;
    Subscription next = current.withStatus(SubscriptionStatus.ACTIVE)
        .withLastPaymentAt(processedAt)
        .withBalanceCharged()
        .scheduledFor(cycle + 1)
        .withVersion(current.version() + 1);
    Period period = new Period(current.accountId(), current.subscriptionId(), cycle,
        current.schedule().dueDate(cycle), amount, PeriodStatus.COMPLETED, 1, charge.transactionId(),
        null, null, at);
    Receipt receipt = new Receipt(current.accountId(), current.subscriptionId(), cycle, current.sku(),
        current.email(), amount, processedAt, charge.transactionId(), current.paymentMethod().mask(), null);
    return new RecordInput("cycle-" + cycle + "/charge-1", current, next,
        HistoryEvent.PAYMENT_SUCCEEDED, Process.INITIAL, SYSTEM,
        "charged " + amount + ", transaction " + charge.transactionId(), period, receipt, at);
  }
}
