package dev.billing.workflows;

import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.Period;
import dev.billing.domain.PendingUpgradeCharge;
import dev.billing.domain.PeriodRefund;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.Proration;
import dev.billing.domain.Receipt;
import dev.billing.domain.Subscription;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.activities.ChargeInput;
import dev.billing.workflows.activities.ChargeLookup;
import dev.billing.workflows.activities.ChargeLookupInput;
import dev.billing.workflows.activities.ChargeResult;
import dev.billing.workflows.activities.NotifyCustomerInput;
import dev.billing.workflows.activities.PaymentFailures;
import dev.billing.workflows.activities.RefundInput;
import dev.billing.workflows.activities.RefundResult;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import org.slf4j.Logger;

/**
 * The money a client request moves: an immediate upgrade's prorated charge and refunds (asked for,
 * or the unused part at an immediate cancellation). Every gateway key derives from the request's
 * id ({@link BillingIds}), so a retry of the request can never move money twice, whatever was
 * written in between. An outcome the gateway does not give is never guessed: the change is recorded
 * pending ({@link RequestLog}) and resolved on a durable timer by asking the gateway (the upgrade:
 * the exact charge lookup; a refund: the same send again within the gateway's replay window).
 */
final class MoneyChanges {
  private static final Logger log = Workflow.getLogger(MoneyChanges.class);

  /** Room for the gateway's clock in the lower bound of when a key was first sent. */
  private static final Duration CLOCK_SKEW = Duration.ofMinutes(5);

  private final RunState run;
  private final RequestLog requests;
  private final Gateway gateway;

  MoneyChanges(RunState run, Gateway gateway) {
    this.run = run;
    this.gateway = gateway;
    this.requests = run.requests;
  }

  /** Charges an immediate upgrade's prorated difference, then changes the plan or waits for it. */
  void upgradeNow(Subscription sub, PlanChangeRequest request, String actor, long paidCycle,
      Money prorated, String why) {
    String requestId = requestIdOf(request);
    String key = BillingIds.changeChargeKey(sub.subscriptionId(), requestId);
    // A lower bound of when the key is first sent, with room for the gateway's clock.
    Instant sentFrom = now().minus(CLOCK_SKEW);
    ChargeResult charged = chargeDifference(sub, paidCycle, prorated, request.sku(), key);
    PendingUpgrade upgrade = new PendingUpgrade(requestId, key, request.sku(), request.price(),
        prorated, paidCycle, sub.paymentMethod(), sentFrom, actor, why, 0);
    // A bank debit that is still settling holds no money yet: the plan waits, as for no answer.
    if (charged == null || charged.pending()) {
      awaitUpgrade(request, upgrade, charged == null ? "got no answer" : "is still settling");
    } else {
      applyUpgrade(upgrade, charged);
    }
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
    String requestId = requestIdOf(request);
    Subscription sub = run.current();
    String key = BillingIds.refundKey(sub.subscriptionId(), stored.cycle(), requestId);
    PeriodRefund known = stored.refund(key);
    if (known == null) {
      return false;
    }
    if (request.amount() != null && !request.amount().equals(known.amount())) {
      throw LifecycleOperations.refusal("request " + requestId + " already asked for a refund of "
          + known.amount() + " of period " + stored.cycle() + "; a new refund needs a new Idempotency-Key");
    }
    if (known.made()) {
      run.outcome("refund " + known.refundId() + " of " + known.amount() + " for period "
          + stored.cycle() + " was made for request " + requestId + " already; not sent again");
      return true;
    }
    if (!requests.refundsByKey(key).isEmpty()) {
      requests.remember(request, AppliedRequest.Status.PENDING,
          pendingSentence(requests.refundsByKey(key).get(0)), null);
      return true;
    }
    RefundInput input = new RefundInput(sub.accountId(), sub.subscriptionId(), stored.cycle(),
        known.transactionId(), known.amount(), key, request.reason());
    String upgrade = known.transactionId().equals(stored.transactionId()) ? null : known.transactionId();
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
    String requestId = requestIdOf(request);
    RefundInput input = new RefundInput(sub.accountId(), sub.subscriptionId(), stored.cycle(),
        stored.transactionId(), amount,
        BillingIds.refundKey(sub.subscriptionId(), stored.cycle(), requestId), reason);
    PendingRefund pending = new PendingRefund(requestId, input, null, actor, now(), 0);
    if (!refundOrAwait(pending, stored)) {
      requests.remember(request, AppliedRequest.Status.PENDING, pendingSentence(pending), null);
    }
  }

  void recordPlanChange(String sku, Money price, Money balance, Receipt receipt, String actor,
      String detail) {
    run.phase(Phase.RECORDING_PAYMENT);
    run.record(LifecycleChanges.planChanged(run.current(), sku, price, balance, receipt,
        Process.API, actor, detail, now()));
    Subscription changed = run.current();
    run.notice(LifecycleOperations.notice(run.current(), NotifyCustomerInput.Kind.PLAN_CHANGED, "plan-v" + changed.version(),
        changed.price(), changed.schedule().dueDate(changed.cycle()), changed.sku()));
    run.outcome(detail);
  }

  /** The upgrade's charge collected: the plan changes now, with its receipt. */
  private void applyUpgrade(PendingUpgrade upgrade, ChargeResult charged) {
    Subscription sub = run.current();
    Receipt receipt = new Receipt(sub.accountId(), sub.subscriptionId(), upgrade.paidCycle(),
        upgrade.sku(), sub.email(), upgrade.amount(),
        charged.processedAt() != null ? charged.processedAt() : now(), charged.transactionId(),
        upgrade.paymentMethod().mask(), null);
    String detail = "plan " + sub.sku() + " -> " + upgrade.sku() + " at " + upgrade.price()
        + "; charged " + upgrade.amount() + " (" + upgrade.why() + "), transaction "
        + charged.transactionId();
    BillingSchedule schedule = sub.schedule();
    requests.upgradeCharged(new UpgradeCharge(upgrade.paidCycle(), charged.transactionId(),
        upgrade.amount(), schedule.dateAt(upgrade.sentFrom().plus(CLOCK_SKEW)),
        schedule.dueDate(upgrade.paidCycle() + 1)));
    recordPlanChange(upgrade.sku(), upgrade.price(), sub.lifecycle().balance(), receipt,
        upgrade.actor(), detail);
  }

  /**
   * The upgrade's charge got no answer: the plan stays as it is, the pending key goes into the
   * record's history (what reconciliation reads), and a timer asks the gateway for it.
   */
  private void awaitUpgrade(PlanChangeRequest request, PendingUpgrade upgrade, String why) {
    Subscription sub = run.current();
    String detail = "plan change to " + upgrade.sku() + " at " + upgrade.price() + " pending: the charge of "
        + upgrade.amount() + " (key " + upgrade.idempotencyKey() + ", request " + upgrade.requestId()
        + ") " + why + "; the gateway is asked for it before the plan changes";
    run.phase(Phase.RECORDING_PAYMENT);
    run.record(LifecycleChanges.upgradePending(sub, new PendingUpgradeCharge(upgrade.requestId(),
        upgrade.idempotencyKey(), upgrade.sku(), upgrade.price(), upgrade.amount(), upgrade.paidCycle(),
        upgrade.paymentMethod(), upgrade.sentFrom()), upgrade.actor(), detail, now()));
    run.outcome(detail);
    log.warn("subscription {}: {}", sub.subscriptionId(), detail);
    requests.remember(request, AppliedRequest.Status.PENDING, detail, null);
    requests.awaitUpgrade(upgrade);
  }

  /** A timer of a change whose money is unknown fired: ask the gateway (on the main thread). */
  void resolvePending(String requestId) {
    for (PendingUpgrade upgrade : requests.upgrades(requestId)) {
      resolveUpgrade(upgrade);
    }
    for (PendingRefund refund : requests.refunds(requestId)) {
      resolveRefund(refund);
    }
  }

  private void resolveUpgrade(PendingUpgrade upgrade) {
    Subscription sub = run.current();
    ChargeLookup found;
    try {
      found = gateway.lookUp(new ChargeLookupInput(sub.subscriptionId(), upgrade.paidCycle(),
          upgrade.idempotencyKey(), upgrade.paymentMethod(), upgrade.sentFrom()));
    } catch (ActivityFailure e) {
      requests.awaitUpgrade(upgrade.asked());
      run.outcome("plan change to " + upgrade.sku() + " still pending: no answer about its charge "
          + upgrade.idempotencyKey() + " (" + ChargeFailure.of(e).message() + "); asked again later");
      return;
    }
    switch (found.status()) {
      case PENDING -> requests.awaitUpgrade(upgrade.asked());
      case SUCCEEDED -> {
        requests.removeUpgrade(upgrade);
        if (sub.status().isTerminal()) {
          String detail = "the upgrade charge " + upgrade.idempotencyKey() + " of " + upgrade.amount()
              + " succeeded (" + found.transactionId() + ") after the subscription ended; the plan was"
              + " not changed: refund it";
          log.error("subscription {}: {}", sub.subscriptionId(), detail);
          run.record(LifecycleChanges.upgradeResolved(sub, "upgrade-after-end", HistoryEvent.PAYMENT_SUCCEEDED,
              Process.RECONCILIATION, SubscriptionChanges.SYSTEM_ACTOR, detail, now()));
          run.outcome(detail);
          return;
        }
        applyUpgrade(upgrade, new ChargeResult(found.transactionId(), found.processedAt(), true));
      }
      default -> {
        // NOT_FOUND (no charge with the key since the request), FAILED or RETURNED: no money kept.
        requests.removeUpgrade(upgrade);
        String detail = "plan change to " + upgrade.sku() + " dropped: its charge " + upgrade.idempotencyKey()
            + " was " + found.status() + (found.failureMessage() == null ? "" : " (" + found.failureMessage() + ")")
            + "; the plan is unchanged";
        run.phase(Phase.RECORDING_PAYMENT);
        run.record(LifecycleChanges.upgradeResolved(sub, "upgrade-dropped", HistoryEvent.PAYMENT_FAILED,
            Process.API, upgrade.actor(), detail, now()));
        run.outcome(detail);
      }
    }
  }

  /**
   * The prorated difference of an immediate upgrade; null when the gateway gave no answer (the
   * outcome is looked up later); a decline fails the update.
   */
  private ChargeResult chargeDifference(Subscription sub, long paidCycle, Money amount, String sku,
      String key) {
    run.phase(Phase.CHARGING);
    ChargeInput input = new ChargeInput(sub.accountId(), sub.subscriptionId(), paidCycle, 0, amount,
        sub.paymentMethod(), key, "upgrade to " + sku + ", rest of period " + paidCycle);
    try {
      return gateway.charge(input);
    } catch (ActivityFailure e) {
      ChargeFailure failure = ChargeFailure.of(e);
      if (failure.outcomeUnknown()) {
        return null;
      }
      throw ApplicationFailure.newNonRetryableFailure("the upgrade's prorated charge of " + amount
          + " was declined: " + failure.message() + "; the plan is unchanged",
          UpdateRejections.PAYMENT_DECLINED);
    }
  }

  /**
   * Immediate cancellation with refundUnused: the unused days of the period in service are
   * refunded (rounded down, today counted as used), from the period's own charge and from each
   * upgrade charged within it. Best effort: a refund the gateway refuses does not stop the
   * cancellation, and is reported for an operator; one without an answer is resolved later.
   */
  void refundUnused(CancelRequest request, String actor) {
    Subscription sub = run.current();
    long cycle = sub.cycle() - 1;
    LocalDate today = today(sub);
    BillingSchedule schedule = sub.schedule();
    if (cycle < 1 || sub.lastPaymentAt() == null || today.isBefore(schedule.dueDate(cycle))
        || !today.isBefore(schedule.dueDate(cycle + 1))) {
      run.outcome("no paid period in service: nothing to refund");
      return;
    }
    // A subscription is cancelled once: without a client id, the cancellation itself is the id.
    String requestId = request.requestId() == null ? "cancellation" : request.requestId();
    refundUnusedOfPeriod(sub, cycle, requestId, actor);
    for (UpgradeCharge upgrade : requests.upgradeCharges(cycle)) {
      long covered = Proration.daysLeft(upgrade.from(), upgrade.until());
      long unused = Math.min(covered, Proration.daysLeft(today.plusDays(1), upgrade.until()));
      if (covered <= 0 || unused <= 0) {
        continue;
      }
      Money share = Proration.shareRoundedDown(upgrade.amount(), unused, covered);
      if (share.minor() <= 0) {
        continue;
      }
      RefundInput input = new RefundInput(sub.accountId(), sub.subscriptionId(), cycle,
          upgrade.transactionId(), share, BillingIds.refundKey(sub.subscriptionId(), cycle,
              requestId + "#" + upgrade.transactionId()),
          unused + " unused of " + covered + " upgraded days");
      try {
        refundOrAwait(new PendingRefund(requestId, input, upgrade.transactionId(), actor, now(), 0), null);
      } catch (ApplicationFailure e) {
        log.error("refund of the upgrade's unused days of {} failed; cancelling anyway: {}",
            sub.subscriptionId(), e.getOriginalMessage());
        run.outcome("unused upgrade days not refunded (" + e.getOriginalMessage() + "); refund by hand");
      }
    }
  }

  private void refundUnusedOfPeriod(Subscription sub, long cycle, String requestId, String actor) {
    BillingSchedule schedule = sub.schedule();
    LocalDate today = today(sub);
    try {
      Period stored = gateway.load(sub, cycle);
      if (stored.transactionId() == null || (stored.status() != PeriodStatus.COMPLETED
          && stored.status() != PeriodStatus.REFUNDED)) {
        run.outcome("cycle " + cycle + " is " + stored.status() + ": nothing to refund");
        return;
      }
      long unused = Proration.daysLeft(today.plusDays(1), schedule.dueDate(cycle + 1));
      long days = Proration.daysLeft(schedule.dueDate(cycle), schedule.dueDate(cycle + 1));
      Money share = Proration.shareRoundedDown(stored.amount(), unused, days);
      Money amount = share.minor() > stored.refundable().minor() ? stored.refundable() : share;
      if (amount.minor() <= 0) {
        run.outcome("no unused amount to refund for cycle " + cycle);
        return;
      }
      RefundInput input = new RefundInput(sub.accountId(), sub.subscriptionId(), cycle,
          stored.transactionId(), amount, BillingIds.refundKey(sub.subscriptionId(), cycle, requestId),
          unused + " unused of " + days + " days");
      refundOrAwait(new PendingRefund(requestId, input, null, actor, now(), 0), stored);
    } catch (ApplicationFailure e) {
      log.error("refund of unused days of {} failed; cancelling anyway: {}", sub.subscriptionId(),
          e.getOriginalMessage());
      run.outcome("unused days not refunded (" + e.getOriginalMessage() + "); refund by hand");
    }
  }

  /**
   * Sends a refund. True when it was made and recorded; false when the gateway gave no answer: it is
   * then recorded as pending and sent again, with the same key, by a timer. A refusal fails. The key
   * is written to the period's record before it is sent ({@link LifecycleChanges#refundSending}).
   *
   * @param stored the period as just read; null to read it again
   */
  private boolean refundOrAwait(PendingRefund pending, Period stored) {
    RefundInput input = pending.input();
    Period period = stored != null ? stored : gateway.load(run.current(), input.cycle());
    PeriodRefund known = period.refund(input.idempotencyKey());
    if (known != null && known.made()) {
      run.outcome("refund " + known.refundId() + " of " + known.amount() + " for period "
          + input.cycle() + " is recorded already; not sent again");
      return true;
    }
    if (known == null) {
      PeriodRefund asked = new PeriodRefund(input.idempotencyKey(), pending.requestId(),
          input.transactionId(), input.amount(), pending.sentFrom(), null);
      run.phase(Phase.RECORDING_PAYMENT);
      run.record(LifecycleChanges.refundSending(run.current(), period, asked, pending.actor(),
          "refund of " + input.amount() + " of " + input.transactionId() + " for period "
              + input.cycle() + " sent with key " + input.idempotencyKey() + " (request "
              + pending.requestId() + ")", now()));
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
        String detail = "refund of " + input.amount() + " for period " + input.cycle() + " not made: " + why;
        if (refused(e)) {
          // The gateway refused it: no money moved, and the key no longer holds any back.
          run.phase(Phase.RECORDING_PAYMENT);
          run.record(LifecycleChanges.refundRefused(run.current(),
              period.withoutRefund(input.idempotencyKey()), pending.actor(),
              detail + " (key " + input.idempotencyKey() + ")", now()));
        }
        throw ApplicationFailure.newNonRetryableFailure(detail, UpdateRejections.TRANSITION_NOT_ALLOWED);
      }
      String detail = pendingSentence(pending);
      run.phase(Phase.RECORDING_PAYMENT);
      run.record(LifecycleChanges.note(run.current(), "refund-pending-" + input.cycle(),
          HistoryEvent.PAYMENT_PENDING, Process.API, pending.actor(), detail, now()));
      run.outcome(detail);
      log.warn("subscription {}: {}", input.subscriptionId(), detail);
      requests.awaitRefund(pending);
      return false;
    }
    recordRefund(pending, refunded, period);
    return true;
  }

  private static String pendingSentence(PendingRefund pending) {
    return "refund of " + pending.input().amount() + " for period " + pending.input().cycle()
        + " pending: the gateway gave no answer about key " + pending.input().idempotencyKey()
        + " (request " + pending.requestId() + "); it is sent again with the same key";
  }

  private void recordRefund(PendingRefund pending, RefundResult refunded, Period period) {
    Subscription sub = run.current();
    RefundInput input = pending.input();
    // A bank-side refund the gateway accepted but has not completed: recorded, and said so, since
    // it can still fail; a failure surfaces at the gateway for reconciliation.
    String reason = !refunded.pending() ? input.reason()
        : (input.reason() == null ? "" : input.reason() + "; ") + "pending at the gateway";
    PeriodRefund made = period.refund(input.idempotencyKey())
        .madeAs(refunded.refundId(), refunded.amount());
    run.phase(Phase.RECORDING_PAYMENT);
    run.record(pending.upgradeTransactionId() == null
        ? LifecycleChanges.refunded(sub, period, made, pending.actor(), reason, now())
        : LifecycleChanges.upgradeRefunded(sub, period, made, pending.actor(), reason, now()));
    run.notice(LifecycleOperations.notice(run.current(), NotifyCustomerInput.Kind.REFUND_ISSUED, "refund-v" + run.current().version(),
        refunded.amount(), today(sub), refunded.refundId()));
    run.outcome("refunded " + refunded.amount() + " of cycle " + input.cycle() + ": " + refunded.refundId());
  }

  /**
   * Resolves a refund without an answer by sending the same input again: within the gateway's
   * replay window the same key and parameters return the first refund if it was made, or make it
   * now, so exactly one exists. Past the window a send could make a second one: the key is left in
   * the record for reconciliation instead.
   */
  private void resolveRefund(PendingRefund pending) {
    RefundInput input = pending.input();
    if (!resendable(pending)) {
      requests.removeRefund(pending);
      String detail = unresolvedSentence(pending);
      log.error("subscription {}: {}", input.subscriptionId(), detail);
      run.record(LifecycleChanges.note(run.current(), "refund-unresolved-" + input.cycle(),
          HistoryEvent.PAYMENT_PENDING, Process.RECONCILIATION, SubscriptionChanges.SYSTEM_ACTOR,
          detail, now()));
      run.outcome(detail);
      return;
    }
    requests.removeRefund(pending);
    try {
      refundOrAwait(pending.sent(), null);
    } catch (ApplicationFailure refused) {
      run.outcome("refund " + input.idempotencyKey() + " of " + input.amount() + " refused: "
          + refused.getOriginalMessage());
    }
  }

  /** A refusal by the gateway (not a conflict over the key, which may hide a refund made). */
  private static boolean refused(ActivityFailure e) {
    return e.getCause() instanceof ApplicationFailure failure
        && PaymentFailures.REFUND_REFUSED.equals(failure.getType());
  }

  /** Whether the gateway still replays the key: sending it again cannot make a second refund. */
  private static boolean resendable(PendingRefund pending) {
    return now().isBefore(pending.sentFrom().plus(RequestLog.RESEND_WINDOW));
  }

  private static String unresolvedSentence(PendingRefund pending) {
    RefundInput input = pending.input();
    return "refund " + input.idempotencyKey() + " of " + input.amount() + " still without an answer "
        + RequestLog.RESEND_WINDOW.toHours() + " hours after it was first sent; not sent again (the"
        + " gateway may have forgotten the key): reconcile it by hand";
  }

  /** The request's id; an update always has one (its own), this only guards a caller without. */
  static String requestIdOf(UpdateRequest<?> request) {
    return request.requestId() != null ? request.requestId() : Workflow.randomUUID().toString();
  }


  private static LocalDate today(Subscription sub) {
    return sub.schedule().dateAt(now());
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
