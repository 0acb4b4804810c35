package dev.billing.bench.stack;

import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Receipt;
import dev.billing.domain.RecordInput;
import dev.billing.domain.RecordResult;
import dev.billing.domain.Subscription;
import dev.billing.store.BillingStore;
import dev.billing.store.DuePayment;
import dev.billing.store.DueReminder;
import dev.billing.store.HistoryEntry;
import dev.billing.store.Page;
import dev.billing.store.PageRequest;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/**
 * The store the worker runs on, counting the writes that mark progress: reminders recorded, periods
 * completed with their receipt (the same transaction). The harness polls these counts to know when
 * a billing day is done without reading DynamoDB while it is measured.
 */
public final class CountingStore implements BillingStore {
  private final BillingStore store;
  private final LongAdder reminded = new LongAdder();
  private final LongAdder paid = new LongAdder();

  public CountingStore(BillingStore store) {
    this.store = store;
  }

  /** Counts since the worker started; the harness works with differences. */
  public record Counts(long reminded, long paid) {}

  public Counts counts() {
    return new Counts(reminded.sum(), paid.sum());
  }

  @Override
  public RecordResult createSubscription(RecordInput change) {
    return store.createSubscription(change);
  }

  @Override
  public RecordResult updateSubscription(RecordInput change) {
    RecordResult result = store.updateSubscription(change);
    if (result.alreadyApplied()) {
      return result;
    }
    Period period = change.period();
    if (change.receipt() != null && period != null && period.status() == PeriodStatus.COMPLETED) {
      paid.increment();
    } else if (change.event() == HistoryEvent.REMINDER_SENT) {
      reminded.increment();
    }
    return result;
  }

  @Override
  public boolean createReceipt(Receipt receipt) {
    return store.createReceipt(receipt);
  }

  @Override
  public Page<DueReminder> getDueRemindersByDate(LocalDate date, PageRequest page) {
    return store.getDueRemindersByDate(date, page);
  }

  @Override
  public Page<DuePayment> getDuePaymentsByDate(LocalDate date, PageRequest page) {
    return store.getDuePaymentsByDate(date, page);
  }

  @Override
  public Page<Subscription> getSubscriptionsByAccount(String accountId, PageRequest page) {
    return store.getSubscriptionsByAccount(accountId, page);
  }

  @Override
  public Page<Receipt> getReceiptsByAccount(String accountId, Instant now, PageRequest page) {
    return store.getReceiptsByAccount(accountId, now, page);
  }

  @Override
  public Optional<Subscription> getSubscription(String accountId, String subscriptionId) {
    return store.getSubscription(accountId, subscriptionId);
  }

  @Override
  public Optional<Period> getPeriod(String accountId, String subscriptionId, long cycle) {
    return store.getPeriod(accountId, subscriptionId, cycle);
  }

  @Override
  public Page<Period> getPeriods(String accountId, String subscriptionId, PageRequest page) {
    return store.getPeriods(accountId, subscriptionId, page);
  }

  @Override
  public Page<HistoryEntry> getHistory(String subscriptionId, PageRequest page) {
    return store.getHistory(subscriptionId, page);
  }
}
