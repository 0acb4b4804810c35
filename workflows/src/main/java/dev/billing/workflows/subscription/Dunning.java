package dev.billing.workflows.subscription;

import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.DunningPolicy;
import dev.billing.domain.FirstPayment;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.workflows.OpenPeriod;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.UnpaidPeriod;
import dev.billing.workflows.activities.ChargeLookup;
import dev.billing.workflows.activities.NotifyCustomerInput;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.time.LocalDate;
import org.slf4j.Logger;

/**
 * A failed attempt and what follows: the failure recorded and notified, the next retry planned on
 * the period's policy, and the final outcome once the schedule is used up. An unknown outcome is
 * never a failure: it is looked up first, and never ends dunning (see {@link Resolution}).
 */
final class Dunning {
  private static final Logger log = Workflow.getLogger(Dunning.class);

  private final RunState run;
  private final PeriodCollection periods;
  private final ChargeAttempts charging;
  private final Settlement settlement;
  private final DunningEnd end;

  Dunning(RunState run, ChargeAttempts charging, Settlement settlement) {
    this.run = run;
    this.periods = run.periods;
    this.charging = charging;
    this.settlement = settlement;
    this.end = new DunningEnd(run, charging);
  }

  /** See {@link DunningEnd#exhaust}. */
  void exhaust(OpenPeriod period, int attempts, String code, String message, String source) {
    end.exhaust(period, attempts, code, message, source);
  }

  /**
   * A failed attempt. An outage or timeout leaves the outcome unknown: the gateway is asked about
   * the key first, and only an answer that the money did not move counts as a failure.
   */
  void failedAttempt(
      long cycle, int attempt, ChargeFailure failure, OpenPeriod prior, String suffix) {
    ChargeFailure known = failure;
    boolean unknown = false;
    String source = null;
    if (failure.outcomeUnknown()) {
      ChargeLookup lookup = charging.lookUp(cycle, attempt);
      if (lookup == null) {
        unknown = true;
      } else {
        switch (lookup.status()) {
          case SUCCEEDED -> {
            if (prior == null) {
              settlement.recordFirstPaid(cycle, lookup);
            } else {
              settlement.collected(
                  cycle,
                  attempt,
                  lookup.transactionId(),
                  lookup.processedAt(),
                  charging.processOf(attempt),
                  suffix);
            }
            return;
          }
          case PENDING -> {
            settlement.pending(
                cycle,
                attempt,
                prior,
                lookup.transactionId(),
                prior == null,
                charging.processOf(attempt),
                CollectionChanges.changeId(cycle, attempt, suffix));
            return;
          }
          case FAILED, RETURNED -> {
            if (lookup.status() == ChargeLookup.Status.RETURNED) {
              charging.returnedCharge(
                  cycle, attempt, lookup.transactionId(), charging.amountOf(cycle));
            }
            known =
                new ChargeFailure(
                    true,
                    ChargeAttempts.codeOr(lookup.failureCode(), ChargeFailure.DEFAULT_DECLINE_CODE),
                    lookup.failureMessage() != null ? lookup.failureMessage() : failure.message());
          }
          case NOT_FOUND -> {
            unknown = true;
            source =
                "lookup: the gateway has no charge for "
                    + charging.key(cycle, attempt)
                    + " yet; outcome unknown, asked again before the next attempt";
          }
        }
      }
    }
    if (unknown && source == null) {
      source = "lookup failed: outcome unknown";
    }
    if (unknown && suffix != null) {
      // A re-sent key still got no answer: nothing new to record, the next date asks again.
      stillUnknown(prior);
      return;
    }
    enterDunning(
        cycle,
        attempt,
        known.code(),
        known.message(),
        known.hard(),
        unknown,
        prior,
        charging.processOf(attempt),
        HistoryEvent.PAYMENT_FAILED,
        suffix,
        source,
        false);
  }

  /**
   * Records the period unpaid and plans its next retry; with none left, applies the policy's final
   * outcome. The policy is snapshotted the first time the period fails and kept from then on.
   *
   * @param suffix null when this records an attempt (change "charge-N"), else the later step
   * @param source what reported the failure, for the log (null: the attempt itself)
   * @param late the failure of a charge that was pending is learned only now: the retry dates that
   *     passed while it settled are not used up (see {@link DunningSchedule})
   */
  void enterDunning(
      long cycle,
      int attempts,
      String code,
      String message,
      boolean hard,
      boolean unknown,
      OpenPeriod prior,
      Process process,
      HistoryEvent event,
      String suffix,
      String source,
      boolean late) {
    enterDunning(
        cycle,
        attempts,
        code,
        message,
        hard,
        unknown,
        prior,
        process,
        event,
        suffix,
        source,
        late,
        charging.amountOf(cycle));
  }

  /**
   * @param amount what the period is charged from now on
   */
  void enterDunning(
      long cycle,
      int attempts,
      String code,
      String message,
      boolean hard,
      boolean unknown,
      OpenPeriod prior,
      Process process,
      HistoryEvent event,
      String suffix,
      String source,
      boolean late,
      Money amount) {
    if (current().status().isTerminal()) {
      end.closeUnpaid(
          cycle, attempts, code, message, unknown, process, event, suffix, source, amount);
      return;
    }
    BillingSchedule schedule = current().schedule();
    boolean returned = event == HistoryEvent.PAYMENT_RETURNED;
    DunningPolicy policy =
        prior != null && prior.policy() != null ? prior.policy() : policyFor(cycle);
    // A first payment's record keeps the subscription INCOMPLETE, or expires it.
    boolean firstPayment = policy.expires() && FirstPayment.applies(current());
    LocalDate from =
        prior != null && prior.dunningFrom() != null
            ? prior.dunningFrom()
            : returned ? schedule.dateAt(now()) : schedule.dueDate(cycle);
    int used =
        late && prior != null
            ? DunningSchedule.usedBeforeLateFailure(policy, prior.retriesUsed())
            : DunningSchedule.usedAt(
                schedule, from, policy, prior == null ? 0 : prior.retriesUsed(), now());
    boolean usedUp = hard || used >= policy.retryAfterDays().size();
    // An unknown outcome never ends dunning: the key is resolved by the gateway first.
    boolean resolve = usedUp && unknown;
    boolean exhausted = usedUp && !unknown;
    Instant next = usedUp ? null : DunningSchedule.retryAt(schedule, from, policy, used);
    if (next != null && next.isBefore(now())) {
      next = now(); // a late failure: its next unused date has passed, so the retry is at once
    }
    String what =
        (returned ? "payment returned: " : "payment failed: ")
            + code
            + (message == null ? "" : " (" + message + ")");
    String plan =
        exhausted && firstPayment
            ? "; first payment not collected after "
                + attempts
                + (attempts == 1 ? " attempt" : " attempts")
                + (hard ? " (hard decline: no retries)" : "")
                + ": subscription expired (INCOMPLETE_EXPIRED)"
            : exhausted
                ? "; dunning exhausted after "
                    + attempts
                    + (attempts == 1 ? " attempt" : " attempts")
                    + (hard ? " (hard decline: no retries)" : "")
                    + ": "
                    + policy.finalOutcome()
                : resolve
                    ? "; dunning schedule used up with the outcome unknown: the gateway is asked"
                        + " before the final outcome"
                    : "; next retry " + schedule.dateAt(next);
    HistoryEvent recorded =
        exhausted && event == HistoryEvent.PAYMENT_FAILED ? HistoryEvent.DUNNING_EXHAUSTED : event;
    run.phase(Phase.RECORDING_PAYMENT);
    boolean advance = prior == null && !returned && cycle == current().cycle();
    RecordInput change =
        CollectionChanges.unpaid(
            current(),
            cycle,
            amount,
            attempts,
            code,
            message,
            recorded,
            advance,
            process,
            CollectionChanges.changeId(cycle, attempts, suffix),
            what + (source == null ? "" : " [" + source + "]") + plan,
            now());
    if (firstPayment) {
      change =
          exhausted ? FirstPaymentChanges.expired(change) : FirstPaymentChanges.retried(change);
    }
    // The period's new state is in place before the record is awaited.
    if (exhausted) {
      periods.remove(cycle);
      if (DunningEnd.leavesOwed(policy)) {
        periods.putUnpaid(
            new UnpaidPeriod(
                cycle,
                attempts,
                amount,
                schedule.dueDate(cycle),
                policy.staleAfterDays(),
                message != null ? message : code));
      }
    } else if (resolve) {
      periods.put(
          OpenPeriod.dunning(cycle, attempts, true, policy, from, used, code, message, amount)
              .resolving(now().plus(DunningSchedule.RESOLVE_AFTER)));
    } else {
      periods.put(
          OpenPeriod.dunning(cycle, attempts, unknown, policy, from, used, code, message, amount));
    }
    run.record(change);
    // An unknown outcome is no news for the customer: the money may well have moved. An expired
    // first payment gets its own notice (DunningEnd), not "update your card to keep it".
    if (!unknown && !(exhausted && firstPayment)) {
      run.notice(
          failureNotice(
              cycle,
              (returned ? "payment-returned-" : "payment-failed-")
                  + attempts
                  + (PaymentCollector.RESENT.equals(suffix) ? "-" + PaymentCollector.RESENT : ""),
              next == null ? null : schedule.dateAt(next),
              message != null ? message : code));
    }
    run.outcome("cycle " + cycle + " " + what + (source == null ? "" : " [" + source + "]") + plan);
    log.warn("cycle {} of {} unpaid: {}{}", cycle, current().subscriptionId(), code, plan);
    if (exhausted) {
      end.finalOutcome(cycle, attempts, policy, amount, message != null ? message : code);
    }
  }

  /**
   * The policy a period is dunned by, snapshotted when it first fails: the first payment's own
   * (short, then INCOMPLETE_EXPIRED) for a subscription that never paid, else the configured one. A
   * first bank debit returned before its settlement was heard never paid either; a settled charge
   * that comes back had paid (lastPaymentAt), and carries the configured policy already.
   */
  private DunningPolicy policyFor(long cycle) {
    DunningPolicy configured = charging.snapshotPolicy(cycle);
    return firstPayment() ? configured.firstPayment() : configured;
  }

  /**
   * Whether a failure now is the first payment's. A subscription created INCOMPLETE only exists on
   * this code; a trial's first charge may have been planned by 1.0.0 code, which dunned it, so the
   * change id is asked for it, and only for it.
   */
  private boolean firstPayment() {
    Subscription sub = current();
    if (!FirstPayment.applies(sub)) {
      return false;
    }
    return sub.status() == SubscriptionStatus.INCOMPLETE || WorkflowChanges.firstPayment();
  }

  /**
   * The lookup before a retry got no answer either: this retry date is used up without a charge.
   */
  void stillUnknown(OpenPeriod period) {
    BillingSchedule schedule = current().schedule();
    int used =
        DunningSchedule.usedAt(
            schedule, period.dunningFrom(), period.policy(), period.retriesUsed(), now());
    OpenPeriod updated = period.withRetriesUsed(used);
    String key = period.lastKey(current().subscriptionId());
    if (!DunningSchedule.exhausted(updated)) {
      periods.put(updated);
      run.outcome(
          "cycle "
              + period.cycle()
              + ": no answer about "
              + key
              + " yet; not charging again"
              + " before it comes; next try "
              + schedule.dateAt(DunningSchedule.nextRetryAt(schedule, updated)));
      return;
    }
    resolveLater(updated, "no answer from the gateway about " + key);
  }

  /**
   * The dunning schedule is used up while the last attempt's outcome is unknown: nothing is charged
   * any more, and the final outcome waits until the gateway says what the key did. Applying it now
   * would guess: a CANCEL could end a subscription that paid, and a late success would find no open
   * period to credit.
   */
  void resolveLater(OpenPeriod period, String why) {
    Instant askAt = now().plus(DunningSchedule.RESOLVE_AFTER);
    periods.put(period.resolving(askAt));
    run.outcome(
        "cycle "
            + period.cycle()
            + ": "
            + why
            + "; dunning schedule used up, the final "
            + "outcome waits for the gateway's answer (asking at "
            + askAt
            + ")");
    log.warn(
        "cycle {} of {}: outcome of {} unknown at the end of dunning; asking the gateway at {}",
        period.cycle(),
        current().subscriptionId(),
        period.lastKey(current().subscriptionId()),
        askAt);
  }

  NotifyCustomerInput failureNotice(long cycle, String kind, LocalDate nextRetry, String reason) {
    Subscription sub = current();
    return NotifyCustomerInput.about(NotifyCustomerInput.Kind.PAYMENT_FAILED, sub)
        .messageId(BillingIds.messageId(sub.subscriptionId(), cycle, kind))
        .cycle(cycle)
        .amount(charging.amountOf(cycle))
        .date(nextRetry)
        .reason(reason)
        .at(now())
        .build();
  }

  private Subscription current() {
    return run.current();
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
