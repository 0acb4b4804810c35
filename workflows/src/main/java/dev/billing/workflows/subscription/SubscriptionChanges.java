package dev.billing.workflows.subscription;

import dev.billing.domain.ChargeMinimums;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.Receipt;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.workflows.CancelRequest;
import dev.billing.workflows.activities.ChargeResult;
import java.time.Instant;

/**
 * The change the workflow writes at each step of a cycle. Pure functions of their arguments (the
 * caller passes workflow time), so they are deterministic and testable without Temporal. Every
 * change carries version {@code current.version() + 1} and a change id that is the same on every
 * retry and every replay of the step. Public for the benchmark's paths without a workflow, which
 * must write exactly the transactions the workflow writes.
 */
public final class SubscriptionChanges {
  private SubscriptionChanges() {}

  static final String API_ACTOR = "api";
  static final String SYSTEM_ACTOR = "system";

  /** Failure code recorded when the gateway never answered (not a decline). */
  public static final String GATEWAY_UNAVAILABLE = "gateway_unavailable";

  /**
   * Failure code of a last attempt the gateway proved it never made: a known outcome, so a run
   * restarted from the record does not resolve it (and apply the final outcome) again.
   */
  public static final String CHARGE_NOT_MADE = "charge_not_made";

  /** Failure code of a pending charge the gateway could not find: its outcome stays unknown. */
  public static final String CHARGE_NOT_FOUND = "charge_not_found";

  static String changeId(long cycle, String step) {
    return "cycle-" + cycle + "/" + step;
  }

  static String chargeStep(int attempt) {
    return "charge-" + attempt;
  }

  /**
   * The first write: the subscription as requested, with the dates of its cycle from the schedule.
   */
  public static RecordInput creation(Subscription requested, String requestedBy, Instant at) {
    Subscription next = requested.scheduledFor(requested.cycle()).withVersion(1);
    String actor = requestedBy == null || requestedBy.isBlank() ? API_ACTOR : requestedBy;
    return new RecordInput(
        "create",
        null,
        next,
        HistoryEvent.SUBSCRIPTION_CREATED,
        Process.API,
        actor,
        "subscription created; first payment due " + next.nextPaymentDate(),
        null,
        null,
        at);
  }

  public static RecordInput reminderSent(Subscription current, String messageId, Instant at) {
    long cycle = current.cycle();
    Subscription next = current.withReminderSent(at).withVersion(current.version() + 1);
    return new RecordInput(
        changeId(cycle, "reminder"),
        current,
        next,
        HistoryEvent.REMINDER_SENT,
        Process.REMINDER,
        SYSTEM_ACTOR,
        "reminder " + messageId + " for the payment due " + current.schedule().dueDate(cycle),
        null,
        null,
        at);
  }

  /** Cycle paid: period completed, receipt written, subscription moves on to the next cycle. */
  public static RecordInput paid(
      Subscription current, int attempt, ChargeResult charge, Instant at) {
    return paid(current, attempt, charge, SubscriptionStatus.ACTIVE, at);
  }

  /**
   * @param status ACTIVE, or PAST_DUE while an earlier period is still in dunning
   */
  static RecordInput paid(
      Subscription current,
      int attempt,
      ChargeResult charge,
      SubscriptionStatus status,
      Instant at) {
    long cycle = current.cycle();
    Money amount = current.amountDue();
    // The gateway's clock dates the receipt; workflow time only if it gave none.
    Instant processedAt = charge.processedAt() != null ? charge.processedAt() : at;
    Subscription next =
        current
            .withStatus(status)
            .withLastPaymentAt(processedAt)
            .withBalanceCharged()
            .scheduledFor(cycle + 1)
            .withVersion(current.version() + 1);
    Period period =
        period(
            current,
            cycle,
            PeriodStatus.COMPLETED,
            attempt,
            charge.transactionId(),
            null,
            null,
            at,
            amount);
    // expiresAt is left to the store: retention is a store setting, not workflow logic.
    Receipt receipt =
        new Receipt(
            current.accountId(),
            current.subscriptionId(),
            cycle,
            current.sku(),
            current.email(),
            amount,
            processedAt,
            charge.transactionId(),
            current.paymentMethod().mask(),
            null);
    return new RecordInput(
        changeId(cycle, chargeStep(attempt)),
        current,
        next,
        HistoryEvent.PAYMENT_SUCCEEDED,
        process(attempt),
        SYSTEM_ACTOR,
        "charged " + amount + ", transaction " + charge.transactionId(),
        period,
        receipt,
        at);
  }

  /**
   * A cycle whose amount due is zero: the credit balance covers its price, so nothing is charged (a
   * gateway refuses a zero charge, which would read as a decline and start dunning over nothing).
   * The period is collected with no transaction and no receipt; the balance keeps what is left.
   */
  static RecordInput paidByCredit(Subscription current, SubscriptionStatus status, Instant at) {
    long cycle = current.cycle();
    Money covered = current.priceFor(cycle);
    Subscription next =
        current
            .withStatus(status)
            .withLastPaymentAt(at)
            .withBalanceCharged()
            .scheduledFor(cycle + 1)
            .withVersion(current.version() + 1);
    Period period =
        period(
            current,
            cycle,
            PeriodStatus.COMPLETED,
            0,
            null,
            null,
            null,
            at,
            Money.zero(covered.currency()));
    return new RecordInput(
        changeId(cycle, "credit"),
        current,
        next,
        HistoryEvent.PAYMENT_SUCCEEDED,
        Process.INITIAL,
        SYSTEM_ACTOR,
        "paid by credit: " + covered + " of the balance used, nothing charged",
        period,
        null,
        at);
  }

  /**
   * A cycle whose amount due is below the gateway's minimum charge: nothing is sent (the gateway
   * would refuse it as invalid, not as the customer's decline), the period is closed at 0.00 and
   * the amount is owed with the next charge through the balance.
   */
  static RecordInput carriedOver(
      Subscription current, Money due, SubscriptionStatus status, Instant at) {
    long cycle = current.cycle();
    Subscription next =
        current
            .withStatus(status)
            .withLifecycle(current.lifecycle().withBalance(due))
            .scheduledFor(cycle + 1)
            .withVersion(current.version() + 1);
    Period period =
        period(
            current,
            cycle,
            PeriodStatus.COMPLETED,
            0,
            null,
            null,
            null,
            at,
            Money.zero(due.currency()));
    return new RecordInput(
        changeId(cycle, "carried"),
        current,
        next,
        HistoryEvent.PAYMENT_CARRIED_OVER,
        Process.INITIAL,
        SYSTEM_ACTOR,
        "carried over: "
            + due
            + " is below the gateway's minimum charge of "
            + ChargeMinimums.minimum(due.currency())
            + "; owed with the next charge",
        period,
        null,
        at);
  }

  /** Cancelled: nothing is due any more and the period being waited for will not be collected. */
  static RecordInput cancellation(Subscription current, CancelRequest request, Instant at) {
    Subscription next =
        current
            .withStatus(SubscriptionStatus.CANCELLED)
            .withNothingDue()
            .withVersion(current.version() + 1);
    Period period = period(current, PeriodStatus.CANCELLED, 0, null, null, null, at);
    return new RecordInput(
        "cancel",
        current,
        next,
        HistoryEvent.SUBSCRIPTION_CANCELLED,
        Process.API,
        actorOf(request),
        request == null ? null : request.reason(),
        period,
        null,
        at);
  }

  /** Cancelled by the system, e.g. when dunning ends with the CANCEL outcome. */
  static RecordInput cancellation(
      Subscription current, String reason, String actor, Process process, Instant at) {
    Subscription next =
        current
            .withStatus(SubscriptionStatus.CANCELLED)
            .withNothingDue()
            .withVersion(current.version() + 1);
    Period period = period(current, PeriodStatus.CANCELLED, 0, null, null, null, at);
    return new RecordInput(
        "cancel",
        current,
        next,
        HistoryEvent.SUBSCRIPTION_CANCELLED,
        process,
        actor,
        reason,
        period,
        null,
        at);
  }

  static String actorOf(CancelRequest request) {
    if (request == null || request.requestedBy() == null || request.requestedBy().isBlank()) {
      return API_ACTOR;
    }
    return request.requestedBy();
  }

  static Process process(int attempt) {
    return attempt <= 1 ? Process.INITIAL : Process.RETRY;
  }

  private static Period period(
      Subscription current,
      PeriodStatus status,
      int attempts,
      String transactionId,
      String failureCode,
      String failureMessage,
      Instant at) {
    return period(
        current, current.cycle(), status, attempts, transactionId, failureCode, failureMessage, at);
  }

  /**
   * The record of period {@code cycle}, which may be earlier than the cycle the subscription is on.
   */
  static Period period(
      Subscription current,
      long cycle,
      PeriodStatus status,
      int attempts,
      String transactionId,
      String failureCode,
      String failureMessage,
      Instant at) {
    return period(
        current,
        cycle,
        status,
        attempts,
        transactionId,
        failureCode,
        failureMessage,
        at,
        current.price());
  }

  static Period period(
      Subscription current,
      long cycle,
      PeriodStatus status,
      int attempts,
      String transactionId,
      String failureCode,
      String failureMessage,
      Instant at,
      Money amount) {
    return new Period(
        current.accountId(),
        current.subscriptionId(),
        cycle,
        current.schedule().dueDate(cycle),
        amount,
        status,
        attempts,
        transactionId,
        failureCode,
        failureMessage,
        at);
  }
}
