package dev.billing.workflows.subscription;

import static dev.billing.workflows.subscription.LifecycleOperations.refusal;

import dev.billing.domain.BillingIds;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodRefund;
import dev.billing.domain.Process;
import dev.billing.domain.Subscription;
import dev.billing.workflows.AppliedRequest;
import dev.billing.workflows.PendingRefund;
import dev.billing.workflows.RefundRequest;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.UpdateRejections;
import dev.billing.workflows.activities.NotifyCustomerInput;
import dev.billing.workflows.activities.PaymentFailures;
import dev.billing.workflows.activities.RefundInput;
import dev.billing.workflows.activities.RefundResult;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.time.LocalDate;
import org.slf4j.Logger;

/**
 * Refunds: asked for, or the unused part at an immediate cancellation. Each key derives from the
 * request's id and is written to the period's record before it is sent; a refund the gateway gives
 * no answer about is recorded pending and sent again, with the same key and parameters, within the
 * gateway's replay window ({@link RequestLog#RESEND_WINDOW}), after which it is left to an
 * operator.
 */
final class Refunds {
  private static final Logger log = Workflow.getLogger(Refunds.class);

  private final RunState run;
  private final RequestLog requests;
  private final Gateway gateway;

  Refunds(RunState run, Gateway gateway) {
    this.run = run;
    this.requests = run.requests;
    this.gateway = gateway;
  }

  /**
   * A refund request whose key the period's record already holds: the request was taken on before,
   * maybe by a run that has ended since (a refund after the end starts a new run, which has no
   * memory of the old one's requests). Answered from the record, never sent as a new refund: made,
   * it is not sent again; still without an answer, it is resolved as any pending refund is.
   *
   * @return false when the record holds no refund of this request
   */
  boolean refundFromRecord(RefundRequest request, Period stored, String actor) {
    String requestId = MoneyChanges.requestIdOf(request);
    Subscription sub = run.current();
    String key = BillingIds.refundKey(sub.subscriptionId(), stored.cycle(), requestId);
    PeriodRefund known = stored.refund(key);
    if (known == null) {
      return false;
    }
    if (request.amount() != null && !request.amount().equals(known.amount())) {
      throw refusal(
          "request "
              + requestId
              + " already asked for a refund of "
              + known.amount()
              + " of period "
              + stored.cycle()
              + "; a new refund needs a new Idempotency-Key");
    }
    if (known.made()) {
      run.outcome(
          "refund "
              + known.refundId()
              + " of "
              + known.amount()
              + " for period "
              + stored.cycle()
              + " was made for request "
              + requestId
              + " already; not sent again");
      return true;
    }
    if (!requests.refundsByKey(key).isEmpty()) {
      requests.remember(
          request,
          AppliedRequest.Status.PENDING,
          pendingSentence(requests.refundsByKey(key).get(0)),
          null);
      return true;
    }
    RefundInput input =
        RefundInput.of(sub, stored.cycle())
            .ofCharge(known.transactionId())
            .amount(known.amount())
            .idempotencyKey(key)
            .reason(request.reason())
            .build();
    String upgrade =
        known.transactionId().equals(stored.transactionId()) ? null : known.transactionId();
    PendingRefund pending = new PendingRefund(requestId, input, upgrade, actor, known.sentAt(), 0);
    if (!resendable(pending)) {
      String detail = unresolvedSentence(pending);
      run.outcome(detail);
      requests.remember(request, AppliedRequest.Status.PENDING, detail, null);
      return true;
    }
    if (!refundOrAwait(pending, stored)) {
      requests.remember(request, AppliedRequest.Status.PENDING, pendingSentence(pending), null);
    }
    return true;
  }

  /** Refunds (part of) a collected period; pending when the gateway gives no answer. */
  void refund(RefundRequest request, Period stored, Money amount, String actor, String reason) {
    Subscription sub = run.current();
    String requestId = MoneyChanges.requestIdOf(request);
    RefundInput input =
        RefundInput.of(sub, stored.cycle())
            .ofCharge(stored.transactionId())
            .amount(amount)
            .idempotencyKey(BillingIds.refundKey(sub.subscriptionId(), stored.cycle(), requestId))
            .reason(reason)
            .build();
    PendingRefund pending = new PendingRefund(requestId, input, null, actor, now(), 0);
    if (!refundOrAwait(pending, stored)) {
      requests.remember(request, AppliedRequest.Status.PENDING, pendingSentence(pending), null);
    }
  }

  /**
   * Sends a refund. True when it was made and recorded; false when the gateway gave no answer: it
   * is then recorded as pending and sent again, with the same key, by a timer. A refusal fails. The
   * key is written to the period's record before it is sent ({@link
   * LifecycleChanges#refundSending}).
   *
   * @param stored the period as just read; null to read it again
   */
  boolean refundOrAwait(PendingRefund pending, Period stored) {
    RefundInput input = pending.input();
    Period period = stored != null ? stored : gateway.load(run.current(), input.cycle());
    PeriodRefund known = period.refund(input.idempotencyKey());
    if (known != null && known.made()) {
      run.outcome(
          "refund "
              + known.refundId()
              + " of "
              + known.amount()
              + " for period "
              + input.cycle()
              + " is recorded already; not sent again");
      return true;
    }
    if (known == null) {
      PeriodRefund asked =
          new PeriodRefund(
              input.idempotencyKey(),
              pending.requestId(),
              input.transactionId(),
              input.amount(),
              pending.sentFrom(),
              null);
      run.phase(Phase.RECORDING_PAYMENT);
      run.record(
          RequestMoneyChanges.refundSending(
              run.current(),
              period,
              asked,
              pending.actor(),
              "refund of "
                  + input.amount()
                  + " of "
                  + input.transactionId()
                  + " for period "
                  + input.cycle()
                  + " sent with key "
                  + input.idempotencyKey()
                  + " (request "
                  + pending.requestId()
                  + ")",
              now()));
      period = period.withRefund(asked);
    }
    run.phase(Phase.CHARGING);
    RefundResult refunded;
    try {
      refunded = gateway.refund(input);
    } catch (ActivityFailure e) {
      ChargeFailure failure = ChargeFailure.of(e);
      String why = failure.message() == null ? "refund failed" : failure.message();
      if (!failure.outcomeUnknown()) {
        String detail =
            "refund of " + input.amount() + " for period " + input.cycle() + " not made: " + why;
        if (refused(e)) {
          // The gateway refused it: no money moved, and the key no longer holds any back.
          run.phase(Phase.RECORDING_PAYMENT);
          run.record(
              RequestMoneyChanges.refundRefused(
                  run.current(),
                  period.withoutRefund(input.idempotencyKey()),
                  pending.actor(),
                  detail + " (key " + input.idempotencyKey() + ")",
                  now()));
        }
        throw ApplicationFailure.newNonRetryableFailure(
            detail, UpdateRejections.TRANSITION_NOT_ALLOWED);
      }
      String detail = pendingSentence(pending);
      run.phase(Phase.RECORDING_PAYMENT);
      run.record(
          LifecycleChanges.note(
              run.current(),
              "refund-pending-" + input.cycle(),
              HistoryEvent.PAYMENT_PENDING,
              Process.API,
              pending.actor(),
              detail,
              now()));
      run.outcome(detail);
      log.warn("subscription {}: {}", input.subscriptionId(), detail);
      requests.awaitRefund(pending);
      return false;
    }
    recordRefund(pending, refunded, period);
    return true;
  }

  private static String pendingSentence(PendingRefund pending) {
    return "refund of "
        + pending.input().amount()
        + " for period "
        + pending.input().cycle()
        + " pending: the gateway gave no answer about key "
        + pending.input().idempotencyKey()
        + " (request "
        + pending.requestId()
        + "); it is sent again with the same key";
  }

  private void recordRefund(PendingRefund pending, RefundResult refunded, Period period) {
    Subscription sub = run.current();
    RefundInput input = pending.input();
    // A bank-side refund the gateway accepted but has not completed: recorded, and said so, since
    // it can still fail; a failure surfaces at the gateway for reconciliation.
    String reason =
        !refunded.pending()
            ? input.reason()
            : (input.reason() == null ? "" : input.reason() + "; ") + "pending at the gateway";
    PeriodRefund made =
        period.refund(input.idempotencyKey()).madeAs(refunded.refundId(), refunded.amount());
    run.phase(Phase.RECORDING_PAYMENT);
    run.record(
        pending.upgradeTransactionId() == null
            ? RequestMoneyChanges.refunded(sub, period, made, pending.actor(), reason, now())
            : RequestMoneyChanges.upgradeRefunded(
                sub, period, made, pending.actor(), reason, now()));
    run.notice(
        run.noticeOf(NotifyCustomerInput.Kind.REFUND_ISSUED, "refund-v" + run.current().version())
            .amount(refunded.amount())
            .date(today(sub))
            .reason(refunded.refundId())
            .build());
    run.outcome(
        "refunded "
            + refunded.amount()
            + " of cycle "
            + input.cycle()
            + ": "
            + refunded.refundId());
  }

  /**
   * Resolves a refund without an answer by sending the same input again: within the gateway's
   * replay window the same key and parameters return the first refund if it was made, or make it
   * now, so exactly one exists. Past the window a send could make a second one: the key is left in
   * the record for reconciliation instead.
   */
  void resolveRefund(PendingRefund pending) {
    RefundInput input = pending.input();
    if (!resendable(pending)) {
      requests.removeRefund(pending);
      String detail = unresolvedSentence(pending);
      log.error("subscription {}: {}", input.subscriptionId(), detail);
      run.record(
          LifecycleChanges.note(
              run.current(),
              "refund-unresolved-" + input.cycle(),
              HistoryEvent.PAYMENT_PENDING,
              Process.RECONCILIATION,
              SubscriptionChanges.SYSTEM_ACTOR,
              detail,
              now()));
      run.outcome(detail);
      return;
    }
    requests.removeRefund(pending);
    try {
      refundOrAwait(pending.sent(), null);
    } catch (ApplicationFailure refused) {
      run.outcome(
          "refund "
              + input.idempotencyKey()
              + " of "
              + input.amount()
              + " refused: "
              + refused.getOriginalMessage());
    }
  }

  /** A refusal by the gateway (not a conflict over the key, which may hide a refund made). */
  private static boolean refused(ActivityFailure e) {
    return e.getCause() instanceof ApplicationFailure failure
        && PaymentFailures.REFUND_REFUSED.equals(failure.getType());
  }

  /** Whether the gateway still replays the key: sending it again cannot make a second refund. */
  static boolean resendable(PendingRefund pending) {
    return now().isBefore(pending.sentFrom().plus(RequestLog.RESEND_WINDOW));
  }

  static String unresolvedSentence(PendingRefund pending) {
    RefundInput input = pending.input();
    return "refund "
        + input.idempotencyKey()
        + " of "
        + input.amount()
        + " still without an answer "
        + RequestLog.RESEND_WINDOW.toHours()
        + " hours after it was first sent; not sent again (the"
        + " gateway may have forgotten the key): reconcile it by hand";
  }

  private static LocalDate today(Subscription sub) {
    return sub.schedule().dateAt(now());
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
