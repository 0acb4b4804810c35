package dev.billing.workflows.subscription;

import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.DunningPolicy;
import dev.billing.domain.Money;
import dev.billing.domain.Process;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.workflows.OpenPeriod;
import dev.billing.workflows.SettledCharge;
import dev.billing.workflows.UnpaidPeriod;
import dev.billing.workflows.activities.ChargeInput;
import dev.billing.workflows.activities.ChargeLookup;
import dev.billing.workflows.activities.ChargeLookupInput;
import dev.billing.workflows.activities.ChargeResult;
import dev.billing.workflows.subscription.ChargeAttempts.Attempt;
import io.temporal.failure.ActivityFailure;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import org.slf4j.Logger;

/**
 * A period's attempts: the key and amount of each, sending one (after asking about a key a lost run
 * may have sent), asking the gateway about one under the payment method it was sent to, and whether
 * a NOT_FOUND proves a key unsent. Shared by the parts of the {@link PaymentCollector}.
 */
final class ChargeAttempts {
  private static final Logger log = Workflow.getLogger(ChargeAttempts.class);

  /** An attempt as the gateway answered it: a result, or a failure (declined, or no answer). */
  record Attempt(ChargeResult result, ChargeFailure failure) {}

  private final RunState run;
  private final PeriodCollection periods;
  private final Gateway gateway;

  /** Set while a manual repayment is being made: its attempts are recorded as MANUAL_REPAYMENT. */
  private boolean manual;

  ChargeAttempts(RunState run, Gateway gateway) {
    this.run = run;
    this.periods = run.periods;
    this.gateway = gateway;
  }

  void manual(boolean making) {
    manual = making;
  }

  Process processOf(int attempt) {
    return manual ? Process.MANUAL_REPAYMENT : SubscriptionChanges.process(attempt);
  }

  /**
   * The gateway says (by event or lookup) that the latest attempt of {@code period} was returned,
   * while the workflow never heard it settle: remembered before anything is recorded, so that its
   * success event, which may still be on its way, cannot collect the period, and a later return
   * event about it does not record the return a second time.
   */
  void returnedCharge(OpenPeriod period, String transactionId) {
    returnedCharge(
        period.cycle(),
        period.attempts(),
        transactionId != null ? transactionId : period.transactionId(),
        period.amount());
  }

  void returnedCharge(long cycle, int attempt, String transactionId, Money amount) {
    periods.returned(new SettledCharge(cycle, attempt, key(cycle, attempt), transactionId, amount));
  }

  /** Retry dates used up when an attempt is made now: the ones that have come, attempted or not. */
  int usedByAttempt(OpenPeriod prior) {
    if (prior == null || prior.policy() == null || prior.dunningFrom() == null) {
      return prior == null ? 0 : prior.retriesUsed();
    }
    return DunningSchedule.usedAt(
        current().schedule(), prior.dunningFrom(), prior.policy(), prior.retriesUsed(), now());
  }

  Attempt charge(long cycle, int attempt) {
    String key = key(cycle, attempt);
    if (periods.keys.unverified(key)) {
      Attempt found = sentByLostRun(cycle, attempt);
      if (found != null) {
        return found;
      }
    }
    Subscription sub = current();
    ChargeInput input =
        ChargeInput.ofPeriod(sub, cycle, attempt, amountOf(cycle), key(cycle, attempt));
    periods.keys.sending(cycle, key, sub.paymentMethod());
    try {
      return new Attempt(gateway.charge(input), null);
    } catch (ActivityFailure e) {
      return new Attempt(null, ChargeFailure.of(e));
    } finally {
      periods.keys.sendEnded(key, now());
    }
  }

  /**
   * Whether a NOT_FOUND for the period's unknown last key proves it made no charge, so that the
   * next attempt may take a new key. It does from a list read made {@link
   * DunningSchedule#RESOLVE_AFTER} after the key's send ended (no request of it still in flight),
   * and when a lost run may already have sent the next key (the key is then never sent again; the
   * next one is looked up before it is sent, as a restart assumes the lost run's sends have ended).
   * It does not for a charge the gateway once accepted (its listing is what failed), nor right
   * after the send (a new payment method, a manual payment): the same key is sent again.
   */
  boolean provenUnsent(OpenPeriod period) {
    if (SubscriptionChanges.CHARGE_NOT_FOUND.equals(period.failureCode())) {
      return false;
    }
    if (periods.keys.unverified(key(period.cycle(), period.attempts() + 1))) {
      return true;
    }
    Instant ended = periods.keys.sendEndedAt(key(period.cycle(), period.attempts()));
    return ended != null && !now().isBefore(ended.plus(DunningSchedule.RESOLVE_AFTER));
  }

  /**
   * A run restarted from the record asks the gateway about a key the lost run may have sent before
   * sending it: the gateway's own replay of a key is forgotten after 24 hours, and a repair can
   * come later than that. Returns the attempt as the lost run's charge ended, or null when the key
   * was never sent; no answer is an unknown outcome, so nothing is sent.
   */
  Attempt sentByLostRun(long cycle, int attempt) {
    ChargeLookup lookup = lookUp(cycle, attempt);
    if (lookup == null) {
      return new Attempt(
          null,
          new ChargeFailure(
              false,
              SubscriptionChanges.GATEWAY_UNAVAILABLE,
              "no answer from the gateway about "
                  + key(cycle, attempt)
                  + ", which a lost run may have sent"));
    }
    periods.keys.verified(key(cycle, attempt));
    return switch (lookup.status()) {
      case NOT_FOUND -> null;
      case SUCCEEDED ->
          new Attempt(new ChargeResult(lookup.transactionId(), lookup.processedAt(), true), null);
      case PENDING ->
          new Attempt(
              new ChargeResult(lookup.transactionId(), lookup.processedAt(), true, true), null);
      case FAILED ->
          new Attempt(
              null,
              new ChargeFailure(
                  true,
                  codeOr(lookup.failureCode(), ChargeFailure.DEFAULT_DECLINE_CODE),
                  lookup.failureMessage()));
      case RETURNED -> {
        // Its money came back: a late success event of this charge must not collect the period.
        returnedCharge(cycle, attempt, lookup.transactionId(), amountOf(cycle));
        yield new Attempt(
            null,
            new ChargeFailure(
                true, codeOr(lookup.failureCode(), "charge_returned"), lookup.failureMessage()));
      }
    };
  }

  /**
   * What the gateway knows about an attempt's key; null when it does not answer either. Asked under
   * the payment method the key was sent to, never today's: a gateway lists charges by customer, so
   * after a change of method the key would read NOT_FOUND and be judged never made.
   */
  ChargeLookup lookUp(long cycle, int attempt) {
    String key = key(cycle, attempt);
    try {
      return gateway.lookUp(
          new ChargeLookupInput(
              current().subscriptionId(),
              cycle,
              key,
              periods.keys.sentWith(key),
              sentNoEarlierThan(cycle)));
    } catch (ActivityFailure e) {
      log.warn("lookup of {} failed; its outcome stays unknown", key, e);
      return null;
    }
  }

  /**
   * A lower bound of when any key of {@code cycle} was sent. The schedule is one anchor, so a
   * billing-day change re-dates past cycles too, by less than a month either way: a bound taken
   * from today's due date alone could fall after a send and make the look-up miss a real charge.
   */
  Instant sentNoEarlierThan(long cycle) {
    BillingSchedule schedule = current().schedule();
    return schedule.startOfDay(schedule.dueDate(cycle)).minus(SCHEDULE_DRIFT);
  }

  /** More than any billing-day change moves a cycle's due date. */
  static final java.time.Duration SCHEDULE_DRIFT = java.time.Duration.ofDays(62);

  DunningPolicy snapshotPolicy(long cycle) {
    return gateway.dunningPolicy(current().subscriptionId(), cycle);
  }

  SubscriptionStatus statusAfterCollecting(long cycle) {
    if (current().status().isTerminal() || current().status() == SubscriptionStatus.PAUSED) {
      // Money settling after a cancellation never revives the subscription, nor ends a pause.
      return current().status();
    }
    return periods.dunningOtherThan(cycle)
        ? SubscriptionStatus.PAST_DUE
        : SubscriptionStatus.ACTIVE;
  }

  /**
   * What a period is charged: fixed by its first attempt (price plus balance at that time), so a
   * plan change or a credit never alters a period already being collected.
   */
  Money amountOf(long cycle) {
    OpenPeriod open = periods.open(cycle);
    if (open != null && open.amount() != null) {
      return open.amount();
    }
    UnpaidPeriod unpaid = periods.unpaid(cycle);
    if (unpaid != null && unpaid.amount() != null) {
      return unpaid.amount();
    }
    return cycle == current().cycle() ? current().amountDue() : current().price();
  }

  String key(long cycle, int attempt) {
    return BillingIds.chargeKey(current().subscriptionId(), cycle, attempt);
  }

  static String codeOr(String code, String fallback) {
    return code == null || code.isBlank() ? fallback : code;
  }

  private Subscription current() {
    return run.current();
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
