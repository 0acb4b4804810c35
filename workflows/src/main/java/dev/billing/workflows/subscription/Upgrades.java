package dev.billing.workflows.subscription;

import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.PaidPeriod;
import dev.billing.domain.PaidUpgradeCharge;
import dev.billing.domain.PendingUpgradeCharge;
import dev.billing.domain.Process;
import dev.billing.domain.ReTermedPeriod;
import dev.billing.domain.Receipt;
import dev.billing.domain.Subscription;
import dev.billing.domain.Term;
import dev.billing.domain.TermChange;
import dev.billing.workflows.AppliedRequest;
import dev.billing.workflows.PendingUpgrade;
import dev.billing.workflows.PlanChangeRequest;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.UpdateRejections;
import dev.billing.workflows.UpgradeCharge;
import dev.billing.workflows.activities.ChargeInput;
import dev.billing.workflows.activities.ChargeLookup;
import dev.billing.workflows.activities.ChargeLookupInput;
import dev.billing.workflows.activities.ChargeResult;
import dev.billing.workflows.activities.NotifyCustomerInput;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;

/**
 * An immediate upgrade's prorated charge. Its key derives from the request's id, so a retry of the
 * request never charges twice; an outcome the gateway does not give (or a debit still settling) is
 * never guessed: the plan waits, the pending key is recorded, and a durable timer asks the gateway
 * with the exact charge lookup ({@link RequestLog}).
 */
final class Upgrades {
  private static final Logger log = Workflow.getLogger(Upgrades.class);

  private final RunState run;
  private final RequestLog requests;
  private final Gateway gateway;
  private final UpgradeAfterEnd afterEnd;

  Upgrades(RunState run, Gateway gateway, Refunds refunds) {
    this.run = run;
    this.requests = run.requests;
    this.gateway = gateway;
    this.afterEnd = new UpgradeAfterEnd(run, gateway, refunds);
  }

  /** Room for the gateway's clock in the lower bound of when a key was first sent. */
  private static final Duration CLOCK_SKEW = Duration.ofMinutes(5);

  /** Charges an immediate upgrade's prorated difference, then changes the plan or waits for it. */
  void upgradeNow(
      Subscription sub,
      PlanChangeRequest request,
      String actor,
      long paidCycle,
      Money prorated,
      String why,
      Term term) {
    String requestId = MoneyChanges.requestIdOf(request);
    String key = BillingIds.changeChargeKey(sub.subscriptionId(), requestId);
    // A lower bound of when the key is first sent, with room for the gateway's clock.
    Instant sentFrom = now().minus(CLOCK_SKEW);
    ChargeResult charged = chargeDifference(sub, paidCycle, prorated, request.sku(), key);
    PendingUpgrade upgrade =
        new PendingUpgrade(
            requestId,
            key,
            request.sku(),
            request.price(),
            prorated,
            paidCycle,
            sub.paymentMethod(),
            sentFrom,
            actor,
            why,
            0,
            term);
    // A bank debit that is still settling holds no money yet: the plan waits, as for no answer.
    if (charged == null || charged.pending()) {
      awaitUpgrade(request, upgrade, charged == null ? "got no answer" : "is still settling");
    } else {
      applyUpgrade(upgrade, charged);
    }
  }

  void recordPlanChange(
      String sku,
      Money price,
      Money balance,
      Receipt receipt,
      PaidUpgradeCharge paid,
      String actor,
      String detail) {
    recordPlanChange(sku, price, balance, receipt, paid, actor, detail, null, null);
  }

  /**
   * @param schedule the schedule with a new term; null when it stays
   * @param reTermed the paid period an immediate switch re-priced; null when none
   */
  void recordPlanChange(
      String sku,
      Money price,
      Money balance,
      Receipt receipt,
      PaidUpgradeCharge paid,
      String actor,
      String detail,
      BillingSchedule schedule,
      ReTermedPeriod reTermed) {
    run.phase(Phase.RECORDING_PAYMENT);
    run.record(
        PlanRecords.planChanged(
            run.current(),
            sku,
            price,
            balance,
            receipt,
            paid,
            schedule,
            reTermed,
            Process.API,
            actor,
            detail,
            now()));
    Subscription changed = run.current();
    run.notice(
        run.noticeOf(NotifyCustomerInput.Kind.PLAN_CHANGED, "plan-v" + changed.version())
            .sku(changed.sku())
            .amount(changed.price())
            .date(changed.schedule().dueDate(changed.cycle()))
            .build());
    run.outcome(detail);
  }

  /** The upgrade's charge collected: the plan changes now, with its receipt. */
  private void applyUpgrade(PendingUpgrade upgrade, ChargeResult charged) {
    Subscription sub = run.current();
    Receipt receipt = receiptOf(upgrade, charged.transactionId(), charged.processedAt());
    String detail =
        "plan "
            + sub.sku()
            + " -> "
            + upgrade.sku()
            + " at "
            + upgrade.price()
            + "; charged "
            + upgrade.amount()
            + " ("
            + upgrade.why()
            + "), transaction "
            + charged.transactionId();
    // The schedule the charge paid for: the subscription's, the switch's, or, when a cycle was
    // charged while the outcome was awaited, the new term from the cycle the subscription is on.
    TermChange.Immediate switched = termSwitch(sub, upgrade);
    BillingSchedule schedule = sub.schedule();
    if (switched != null) {
      schedule = switched.schedule();
    } else if (upgrade.term() != null && upgrade.term() != sub.schedule().term()) {
      schedule = TermChange.atCycle(sub.schedule(), sub.cycle(), upgrade.term());
    }
    if (upgrade.term() != null) {
      detail += "; billed " + upgrade.term().name().toLowerCase(java.util.Locale.ROOT);
    }
    UpgradeCharge paid =
        new UpgradeCharge(
            upgrade.paidCycle(),
            charged.transactionId(),
            upgrade.amount(),
            schedule.dateAt(upgrade.sentFrom().plus(CLOCK_SKEW)),
            schedule.dueDate(upgrade.paidCycle() + 1),
            upgrade.idempotencyKey());
    requests.upgradeCharged(paid);
    recordPlanChange(
        upgrade.sku(),
        upgrade.price(),
        sub.lifecycle().balance(),
        receipt,
        paid.toRecord(),
        upgrade.actor(),
        detail,
        upgrade.term() == null ? null : schedule,
        switched == null ? null : ReTermedPeriod.of(switched, sub, paid.from()));
    if (upgrade.term() != null) {
      // The cycle's due date moved with the term: plan again.
      run.replan();
    }
  }

  /**
   * The switch as {@link TermChange#now} gave it on the day the request was applied, while the
   * period it re-priced is still the one in service; null otherwise (no switch, or a cycle charged
   * meanwhile).
   */
  private static TermChange.Immediate termSwitch(Subscription sub, PendingUpgrade upgrade) {
    if (upgrade.term() == null
        || upgrade.term() == sub.schedule().term()
        || sub.cycle() != upgrade.paidCycle() + 1) {
      return null;
    }
    return TermChange.now(
        sub.schedule(),
        sub.cycle(),
        sub.price(),
        upgrade.term(),
        upgrade.price(),
        sub.schedule().dateAt(upgrade.sentFrom().plus(CLOCK_SKEW)),
        PaidPeriod.running(sub));
  }

  /**
   * The upgrade's charge got no answer: the plan stays as it is, the pending key goes into the
   * record's history (what reconciliation reads), and a timer asks the gateway for it.
   */
  private void awaitUpgrade(PlanChangeRequest request, PendingUpgrade upgrade, String why) {
    Subscription sub = run.current();
    String detail =
        "plan change to "
            + upgrade.sku()
            + " at "
            + upgrade.price()
            + " pending: the charge of "
            + upgrade.amount()
            + " (key "
            + upgrade.idempotencyKey()
            + ", request "
            + upgrade.requestId()
            + ") "
            + why
            + "; the gateway is asked for it before the plan changes";
    run.phase(Phase.RECORDING_PAYMENT);
    run.record(
        RequestMoneyChanges.upgradePending(
            sub,
            new PendingUpgradeCharge(
                upgrade.requestId(),
                upgrade.idempotencyKey(),
                upgrade.sku(),
                upgrade.price(),
                upgrade.amount(),
                upgrade.paidCycle(),
                upgrade.paymentMethod(),
                upgrade.sentFrom(),
                upgrade.term()),
            upgrade.actor(),
            detail,
            now()));
    run.outcome(detail);
    log.warn("subscription {}: {}", sub.subscriptionId(), detail);
    requests.remember(request, AppliedRequest.Status.PENDING, detail, null);
    requests.awaitUpgrade(upgrade);
  }

  void resolveUpgrade(PendingUpgrade upgrade) {
    Subscription sub = run.current();
    ChargeLookup found;
    try {
      found =
          gateway.lookUp(
              new ChargeLookupInput(
                  sub.subscriptionId(),
                  upgrade.paidCycle(),
                  upgrade.idempotencyKey(),
                  upgrade.paymentMethod(),
                  upgrade.sentFrom()));
    } catch (ActivityFailure e) {
      requests.awaitUpgrade(upgrade.asked());
      run.outcome(
          "plan change to "
              + upgrade.sku()
              + " still pending: no answer about its charge "
              + upgrade.idempotencyKey()
              + " ("
              + ChargeFailure.of(e).message()
              + "); asked again later");
      return;
    }
    switch (found.status()) {
      case PENDING -> requests.awaitUpgrade(upgrade.asked());
      case SUCCEEDED -> {
        requests.removeUpgrade(upgrade);
        if (sub.status().isTerminal() && WorkflowChanges.upgradeAfterEndRefunded()) {
          afterEnd.refund(upgrade, receiptOf(upgrade, found));
          return;
        }
        if (sub.status().isTerminal()) {
          String detail =
              "the upgrade charge "
                  + upgrade.idempotencyKey()
                  + " of "
                  + upgrade.amount()
                  + " succeeded ("
                  + found.transactionId()
                  + ") after the subscription ended; the plan was"
                  + " not changed: refund it";
          log.error("subscription {}: {}", sub.subscriptionId(), detail);
          run.record(
              RequestMoneyChanges.upgradeResolved(
                  sub,
                  "upgrade-after-end",
                  HistoryEvent.PAYMENT_SUCCEEDED,
                  Process.RECONCILIATION,
                  SubscriptionChanges.SYSTEM_ACTOR,
                  detail,
                  now()));
          run.outcome(detail);
          return;
        }
        applyUpgrade(upgrade, new ChargeResult(found.transactionId(), found.processedAt(), true));
      }
      default -> {
        // NOT_FOUND (no charge with the key since the request), FAILED or RETURNED: no money kept.
        requests.removeUpgrade(upgrade);
        String detail =
            "plan change to "
                + upgrade.sku()
                + " dropped: its charge "
                + upgrade.idempotencyKey()
                + " was "
                + found.status()
                + (found.failureMessage() == null ? "" : " (" + found.failureMessage() + ")")
                + "; the plan is unchanged";
        run.phase(Phase.RECORDING_PAYMENT);
        run.record(
            RequestMoneyChanges.upgradeResolved(
                sub,
                "upgrade-dropped",
                HistoryEvent.PAYMENT_FAILED,
                Process.API,
                upgrade.actor(),
                detail,
                now()));
        run.outcome(detail);
      }
    }
  }

  private Receipt receiptOf(PendingUpgrade upgrade, ChargeLookup found) {
    return receiptOf(upgrade, found.transactionId(), found.processedAt());
  }

  private Receipt receiptOf(PendingUpgrade upgrade, String transactionId, Instant processedAt) {
    Subscription sub = run.current();
    return new Receipt(
        sub.accountId(),
        sub.subscriptionId(),
        upgrade.paidCycle(),
        upgrade.sku(),
        sub.email(),
        upgrade.amount(),
        processedAt != null ? processedAt : now(),
        transactionId,
        upgrade.paymentMethod().mask(),
        null);
  }

  /**
   * The prorated difference of an immediate upgrade; null when the gateway gave no answer (the
   * outcome is looked up later); a decline fails the update.
   */
  private ChargeResult chargeDifference(
      Subscription sub, long paidCycle, Money amount, String sku, String key) {
    run.phase(Phase.CHARGING);
    ChargeInput input = ChargeInput.ofUpgrade(sub, paidCycle, sku, amount, key);
    try {
      return gateway.charge(input);
    } catch (ActivityFailure e) {
      ChargeFailure failure = ChargeFailure.of(e);
      if (failure.outcomeUnknown()) {
        return null;
      }
      throw ApplicationFailure.newNonRetryableFailure(
          "the upgrade's prorated charge of "
              + amount
              + " was declined: "
              + failure.message()
              + "; the plan is unchanged",
          UpdateRejections.PAYMENT_DECLINED);
    }
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
