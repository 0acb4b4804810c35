package dev.billing.domain;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The events a recorded change means to a merchant's product, decided from the change alone: its
 * history event, the statuses before and after, and the period or receipt it wrote. Pure, so the
 * store writes the same events on every retry of a change, and a new event type is a change of this
 * table, never of the subscription workflow.
 *
 * <p>Events are never invented: a payment event needs the gateway's answer. A failure recorded
 * while the gateway's answer is unknown (no answer, or it could not find the charge yet) is no
 * {@code payment.failed}, since the money may have moved; the subscription's status, which the
 * record does change, is still told ({@code subscription.past_due}). Money events come before the
 * subscription events they cause, in one change.
 */
public final class MerchantEvents {
  /**
   * Failure codes the workflow records when a charge's outcome is not known (SubscriptionChanges'
   * GATEWAY_UNAVAILABLE and CHARGE_NOT_FOUND; a workflows test holds the two lists equal).
   */
  public static final Set<String> OUTCOME_UNKNOWN_CODES =
      Set.of("gateway_unavailable", "charge_not_found");

  private MerchantEvents() {}

  public static List<MerchantEvent> of(RecordInput change) {
    List<MerchantEvent> events = new ArrayList<>();
    payment(change, events);
    subscription(change, events);
    return List.copyOf(events);
  }

  private static void payment(RecordInput change, List<MerchantEvent> events) {
    Period period = change.period();
    Receipt receipt = change.receipt();
    switch (change.event()) {
      case PAYMENT_SUCCEEDED -> {
        // A period covered by credit moved no money: there is no payment to tell of.
        if (collected(period) && period.transactionId() != null) {
          events.add(event(MerchantEventType.PAYMENT_SUCCEEDED, change));
        }
      }
      case PLAN_CHANGED -> {
        if (receipt != null && receipt.amount().minor() > 0) {
          events.add(event(MerchantEventType.PAYMENT_SUCCEEDED, change));
        }
      }
      case PAYMENT_FAILED, DUNNING_EXHAUSTED, PAYMENT_RETURNED -> {
        if (period != null
            && period.status() == PeriodStatus.ERROR
            && !OUTCOME_UNKNOWN_CODES.contains(period.failureCode())) {
          events.add(event(MerchantEventType.PAYMENT_FAILED, change));
        } else if (change.event() == HistoryEvent.PAYMENT_RETURNED
            && period == null
            && receipt != null
            && receipt.amount().minor() < 0) {
          // An upgrade's charge came back: the change writes its reversing receipt.
          events.add(event(MerchantEventType.PAYMENT_FAILED, change));
        }
      }
      case PAYMENT_REFUNDED -> {
        if (period != null) {
          events.add(event(MerchantEventType.PAYMENT_REFUNDED, change));
        }
      }
      case PAYMENT_DISPUTED -> {
        // An upgrade's charge has no period of its own: its change writes none.
        if (period == null || period.status() == PeriodStatus.DISPUTED) {
          events.add(event(MerchantEventType.PAYMENT_DISPUTED, change));
        }
      }
      default -> {}
    }
  }

  private static void subscription(RecordInput change, List<MerchantEvent> events) {
    Subscription before = change.previous();
    Subscription after = change.next();
    if (before == null) {
      if (change.event() == HistoryEvent.SUBSCRIPTION_CREATED) {
        events.add(subscriptionEvent(MerchantEventType.SUBSCRIPTION_CREATED, after));
      }
      return;
    }
    if (change.event() == HistoryEvent.REMINDER_SENT
        && before.status() == SubscriptionStatus.TRIALING) {
      // In a trial the cycle's reminder is the trial-ending notice (ReminderMessages).
      events.add(subscriptionEvent(MerchantEventType.SUBSCRIPTION_TRIAL_WILL_END, after));
    }
    if (change.event() == HistoryEvent.PAYMENT_SUCCEEDED
        && collected(change.period())
        && before.lastPaymentAt() == null) {
      events.add(subscriptionEvent(MerchantEventType.SUBSCRIPTION_ACTIVATED, after));
    }
    if (change.event() == HistoryEvent.PLAN_CHANGED) {
      events.add(subscriptionEvent(MerchantEventType.SUBSCRIPTION_PLAN_CHANGED, after));
    }
    if (change.event() == HistoryEvent.SUBSCRIPTION_REACTIVATED) {
      // CANCELLED -> ACTIVE/TRIALING has no status event of its own: this is the one.
      events.add(subscriptionEvent(MerchantEventType.SUBSCRIPTION_REACTIVATED, after));
    }
    SubscriptionStatus from = before.status();
    SubscriptionStatus to = after.status();
    if (from == to) {
      return;
    }
    if (from == SubscriptionStatus.PAUSED && !to.isTerminal()) {
      events.add(subscriptionEvent(MerchantEventType.SUBSCRIPTION_RESUMED, after));
    }
    switch (to) {
      case PAST_DUE ->
          events.add(subscriptionEvent(MerchantEventType.SUBSCRIPTION_PAST_DUE, after));
      case PAUSED -> events.add(subscriptionEvent(MerchantEventType.SUBSCRIPTION_PAUSED, after));
      case CANCELLED ->
          events.add(subscriptionEvent(MerchantEventType.SUBSCRIPTION_CANCELED, after));
      case INCOMPLETE_EXPIRED ->
          events.add(subscriptionEvent(MerchantEventType.SUBSCRIPTION_INCOMPLETE_EXPIRED, after));
      default -> {}
    }
  }

  private static boolean collected(Period period) {
    return period != null && period.status() == PeriodStatus.COMPLETED;
  }

  private static MerchantEvent event(MerchantEventType type, RecordInput change) {
    return new MerchantEvent(type, change.next(), change.period(), change.receipt());
  }

  private static MerchantEvent subscriptionEvent(MerchantEventType type, Subscription after) {
    return new MerchantEvent(type, after, null, null);
  }
}
