package dev.billing.bench.batch;

import dev.billing.activities.RecordActivitiesImpl;
import dev.billing.activities.ReminderActivitiesImpl;
import dev.billing.activities.notifications.MessageTemplates;
import dev.billing.activities.notifications.Notifier;
import dev.billing.activities.payments.GatewayCharge;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.PaymentGateway;
import dev.billing.domain.BillingIds;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.store.BillingStore;
import dev.billing.store.DuePayment;
import dev.billing.store.DueReminder;
import dev.billing.store.Page;
import dev.billing.store.PageRequest;
import dev.billing.workflows.activities.ChargeResult;
import dev.billing.workflows.activities.SendReminderInput;
import dev.billing.workflows.subscription.SubscriptionChanges;
import java.time.InstantSource;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * The seeds' design without Temporal: a daily job reads GSI-1 (reminders) or GSI-2 (payments) for
 * the day, and for each subscription found reads it (consistently: the index only projects part of
 * it and may lag), sends the reminder or charges through the gateway with the same idempotency key
 * the workflow uses, and writes the same transaction the workflow writes, through the same activity
 * code where it runs outside Temporal (the reminder activity sends and records; the record activity
 * commits and mails the receipt). Same store, same gateway, as many threads as the worker has
 * slots. No lock table: it would only add cost.
 */
public final class BatchBilling {
  private static final int PAGE = 200;

  private final BillingStore store;
  private final PaymentGateway gateway;
  private final ReminderActivitiesImpl reminders;
  private final RecordActivitiesImpl records;
  private final InstantSource clock;
  private final int threads;

  public BatchBilling(
      BillingStore store,
      PaymentGateway gateway,
      Notifier notifier,
      InstantSource clock,
      int threads) {
    this.store = store;
    this.gateway = gateway;
    MessageTemplates templates = new MessageTemplates();
    this.reminders = new ReminderActivitiesImpl(notifier, templates, store);
    this.records = new RecordActivitiesImpl(store, notifier, templates);
    this.clock = clock;
    this.threads = threads;
  }

  /** The reminder job of one day; returns how many subscriptions it reminded. */
  public int remind(LocalDate reminderDate) {
    List<DueReminder> due = all(store::getDueRemindersByDate, reminderDate);
    List<Boolean> done =
        Parallel.map(
            due,
            threads,
            entry -> {
              Optional<Subscription> found =
                  store.getSubscription(entry.accountId(), entry.subscriptionId());
              if (found.isEmpty() || !reminderDate.equals(found.get().nextReminderDate())) {
                return false;
              }
              Subscription sub = found.get();
              long cycle = sub.cycle();
              String messageId = BillingIds.messageId(sub.subscriptionId(), cycle, "reminder");
              var change = SubscriptionChanges.reminderSent(sub, messageId, clock.instant());
              reminders.sendReminder(
                  new SendReminderInput(
                      messageId,
                      sub.email(),
                      sub.sku(),
                      sub.amountDueFor(cycle),
                      sub.schedule().dueDate(cycle),
                      sub.paymentMethod().mask(),
                      change));
              return true;
            });
    return count(done);
  }

  /**
   * The payment job of one day: attempt 1 of every subscription due; returns how many it charged.
   */
  public int charge(LocalDate dueDate) {
    List<DuePayment> due = all(store::getDuePaymentsByDate, dueDate);
    List<Boolean> done =
        Parallel.map(
            due,
            threads,
            entry -> {
              Optional<Subscription> found =
                  store.getSubscription(entry.accountId(), entry.subscriptionId());
              if (found.isEmpty()
                  || !dueDate.equals(found.get().nextPaymentDate())
                  || found.get().status() != SubscriptionStatus.ACTIVE) {
                return false;
              }
              Subscription sub = found.get();
              long cycle = sub.cycle();
              GatewayCharge charge =
                  gateway.charge(
                      new GatewayChargeRequest(
                          BillingIds.chargeKey(sub.subscriptionId(), cycle, 1),
                          sub.amountDue(),
                          sub.paymentMethod().token(),
                          sub.sku()
                              + " subscription, period "
                              + cycle
                              + " due "
                              + sub.schedule().dueDate(cycle),
                          Map.of(
                              GatewayChargeRequest.SUBSCRIPTION_ID,
                              sub.subscriptionId(),
                              GatewayChargeRequest.CYCLE,
                              Long.toString(cycle))));
              records.record(
                  SubscriptionChanges.paid(
                      sub,
                      1,
                      new ChargeResult(
                          charge.transactionId(), charge.processedAt(), charge.replayed()),
                      clock.instant()));
              return true;
            });
    return count(done);
  }

  private static int count(List<Boolean> done) {
    return (int) done.stream().filter(Boolean::booleanValue).count();
  }

  private static <T> List<T> all(
      BiFunction<LocalDate, PageRequest, Page<T>> query, LocalDate date) {
    List<T> items = new ArrayList<>();
    String token = null;
    do {
      Page<T> page = query.apply(date, new PageRequest(token, PAGE));
      items.addAll(page.items());
      token = page.nextPageToken();
    } while (token != null);
    return items;
  }
}
