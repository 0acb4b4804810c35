package dev.billing.workflows.subscription;

import dev.billing.domain.BillingIds;
import dev.billing.domain.DunningPolicy;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentEvent;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodRefund;
import dev.billing.domain.Process;
import dev.billing.domain.Receipt;
import dev.billing.domain.Subscription;
import dev.billing.workflows.OpenPeriod;
import dev.billing.workflows.OpenPeriod.State;
import dev.billing.workflows.SettledCharge;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.UpgradeCharge;
import dev.billing.workflows.activities.ChargeLookup;
import dev.billing.workflows.activities.NotifyCustomerInput;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import org.slf4j.Logger;

/**
 * Acts on a payment event taken from the inbox: its meaning ({@link PeriodCollection.Effect}) is
 * re-read from the current state, so a duplicate or late event changes nothing.
 */
final class PaymentEvents {
  private static final Logger log = Workflow.getLogger(PaymentEvents.class);

  private final RunState run;
  private final Gateway gateway;
  private final PeriodCollection periods;
  private final ChargeAttempts charging;
  private final Settlement settlement;
  private final Dunning dunning;
  private final GatewayMoney gatewayMoney;

  PaymentEvents(
      RunState run,
      Gateway gateway,
      ChargeAttempts charging,
      Settlement settlement,
      Dunning dunning,
      GatewayMoney gatewayMoney) {
    this.run = run;
    this.gateway = gateway;
    this.periods = run.periods;
    this.charging = charging;
    this.settlement = settlement;
    this.dunning = dunning;
    this.gatewayMoney = gatewayMoney;
  }

  /**
   * Acts on a payment event taken from the inbox; its meaning is re-read from the current state.
   */
  void onEvent(PaymentEvent event) {
    if (gatewayMoney.takes(event)) {
      gatewayMoney.onEvent(event);
      return;
    }
    UpgradeCharge upgrade =
        event.type() == PaymentEvent.Type.CHARGE_RETURNED && periods.returnedFor(event) == null
            ? run.requests.upgradeCharge(event.idempotencyKey(), event.transactionId())
            : null;
    if (upgrade != null) {
      upgradeReturned(upgrade, event);
      return;
    }
    PeriodCollection.Effect effect = periods.effectOf(event);
    OpenPeriod period = periods.openFor(event);
    String source = event.type() + " " + event.eventId();
    switch (effect) {
      case SETTLE -> {
        OpenPeriod paid = periods.openForAnyAttempt(event);
        int attempt = periods.attemptOf(event, paid);
        String transactionId =
            event.transactionId() != null ? event.transactionId() : paid.transactionId();
        settlement.collected(
            paid.cycle(), attempt, transactionId, event.occurredAt(), Process.WEBHOOK, "settled");
      }
      case CONFIRM_SUCCESS -> confirmSuccess(periods.openForAnyAttempt(event), event, source);
      case FAIL ->
          dunning.enterDunning(
              period.cycle(),
              period.attempts(),
              ChargeAttempts.codeOr(event.failureCode(), "charge_failed"),
              event.failureMessage(),
              false,
              false,
              period,
              Process.WEBHOOK,
              HistoryEvent.PAYMENT_FAILED,
              "failed",
              source,
              true);
      case RETURN_PENDING -> {
        charging.returnedCharge(period, event.transactionId());
        dunning.enterDunning(
            period.cycle(),
            period.attempts(),
            ChargeAttempts.codeOr(event.failureCode(), "charge_returned"),
            event.failureMessage(),
            false,
            false,
            period,
            Process.WEBHOOK,
            HistoryEvent.PAYMENT_RETURNED,
            "returned",
            source,
            true);
      }
      case RETURN_SETTLED -> returned(periods.settledFor(event), event);
      case RESOLVE_FAILED -> {
        if (period.state() == State.RESOLVING
            && periods.keys.unverified(charging.key(period.cycle(), period.attempts() + 1))) {
          // A lost run may have sent the next key: the gateway is asked about both before the end.
          periods.put(period.withSettleBy(now()));
          return;
        }
        if (period.state() == State.RESOLVING) {
          dunning.exhaust(
              period,
              period.attempts(),
              ChargeAttempts.codeOr(event.failureCode(), "charge_failed"),
              event.failureMessage(),
              source);
          return;
        }
        periods.put(period.withOutcomeKnown());
        run.outcome(
            "cycle "
                + period.cycle()
                + ": "
                + source
                + " says attempt "
                + period.attempts()
                + " failed; no lookup needed before the next attempt");
      }
      case NONE -> {
        if (periods.possibleDoubleCharge(event)) {
          // Never silent: money moved for a period that is already collected or no longer open.
          log.error(
              "POSSIBLE DOUBLE CHARGE: {} reports a successful charge {} (key {}, cycle {}) of "
                  + "subscription {}, but that period is not open; reconcile and refund if it was charged twice",
              source,
              event.transactionId(),
              event.idempotencyKey(),
              event.cycle(),
              event.subscriptionId());
          run.outcome(
              "possible double charge: "
                  + source
                  + " ("
                  + event.idempotencyKey()
                  + ", "
                  + event.transactionId()
                  + ") succeeded for a period that is not open");
        } else if (event.type() == PaymentEvent.Type.CHARGE_RETURNED
            && periods.returnedFor(event) == null) {
          // Never silent either: money went back to the customer and no period here holds it.
          log.error(
              "RETURN NOT RECORDED: {} of {} (key {}) for subscription {}: {}; reconcile",
              source,
              event.transactionId(),
              event.idempotencyKey(),
              event.subscriptionId(),
              periods.whyIgnored(event));
          run.outcome("return not recorded: " + source + " matches no collected charge here");
        } else {
          log.info("payment event has no effect: {}", periods.whyIgnored(event));
        }
      }
    }
  }

  /**
   * A success event for an attempt this run knows failed or came back: collected only if the
   * gateway's exact read says the money is there now; a return is remembered; no answer is left to
   * reconciliation, flagged, since collecting could credit a returned debit and ignoring it could
   * charge twice.
   */
  void confirmSuccess(OpenPeriod period, PaymentEvent event, String source) {
    long cycle = period.cycle();
    int attempt = periods.attemptOf(event, period);
    ChargeLookup lookup = charging.lookUp(cycle, attempt);
    ChargeLookup.Status status = lookup == null ? null : lookup.status();
    if (status == ChargeLookup.Status.SUCCEEDED) {
      String transactionId =
          lookup.transactionId() != null ? lookup.transactionId() : event.transactionId();
      settlement.collected(
          cycle, attempt, transactionId, event.occurredAt(), Process.WEBHOOK, "settled");
      return;
    }
    if (status == ChargeLookup.Status.RETURNED) {
      charging.returnedCharge(cycle, attempt, lookup.transactionId(), charging.amountOf(cycle));
    }
    if (status == null) {
      log.error(
          "POSSIBLE DOUBLE CHARGE: {} reports a successful charge {} (key {}) of subscription {}"
              + " for an attempt recorded as failed, and the gateway does not answer; reconcile",
          source,
          event.transactionId(),
          event.idempotencyKey(),
          event.subscriptionId());
    }
    run.outcome(
        "cycle "
            + cycle
            + ": "
            + source
            + " reports "
            + event.idempotencyKey()
            + " succeeded; the gateway says "
            + (status == null ? "nothing (no answer)" : status)
            + ": not collected");
  }

  /**
   * A settled charge came back: its period is ERROR again, owing what was collected (not today's
   * price, which a plan change may have moved), and dunning starts from today.
   */
  void returned(SettledCharge charge, PaymentEvent event) {
    periods.returned(charge);
    Money owed = charge.amount() != null ? charge.amount() : charging.amountOf(charge.cycle());
    // Every attempt so far, the returned one included, used a retry: a debit that is always
    // returned ends its dunning like one that is always declined, never starts it over.
    DunningPolicy policy = charging.snapshotPolicy(charge.cycle());
    int used = Math.min(charge.attempt() - 1, policy.retryAfterDays().size());
    OpenPeriod counted =
        OpenPeriod.dunning(
            charge.cycle(),
            charge.attempt(),
            false,
            policy,
            current().schedule().dateAt(now()),
            used,
            null,
            null,
            owed);
    dunning.enterDunning(
        charge.cycle(),
        charge.attempt(),
        ChargeAttempts.codeOr(event.failureCode(), "charge_returned"),
        event.failureMessage(),
        false,
        false,
        counted,
        Process.WEBHOOK,
        HistoryEvent.PAYMENT_RETURNED,
        "returned",
        event.type() + " " + event.eventId(),
        false,
        owed);
  }

  /**
   * An applied upgrade's charge came back: the plan stays (the customer asked for it), and what the
   * charge collected is owed again with the next charge, as a balance the next period's first
   * attempt adds (and dunning, if that charge fails, pursues). The receipt is reversed in the same
   * write. The charge joins the returned ones, so its late or repeated events change nothing.
   */
  private void upgradeReturned(UpgradeCharge upgrade, PaymentEvent event) {
    Subscription sub = current();
    Money amount = upgrade.amount();
    // After the end there is no next charge: what came back is written off, openly, and not
    // asked of the customer.
    boolean ended = sub.status().isTerminal();
    Receipt reversal =
        new Receipt(
            sub.accountId(),
            sub.subscriptionId(),
            upgrade.cycle(),
            sub.sku(),
            sub.email(),
            Money.zero(amount.currency()).minus(amount),
            event.occurredAt() != null ? event.occurredAt() : now(),
            upgrade.transactionId(),
            sub.paymentMethod().mask(),
            null);
    String detail =
        "the upgrade charge "
            + upgrade.transactionId()
            + " (key "
            + upgrade.idempotencyKey()
            + ") of "
            + amount
            + " in cycle "
            + upgrade.cycle()
            + " was returned"
            + (event.failureCode() == null ? "" : " (" + event.failureCode() + ")")
            + "; its receipt is reversed and "
            + amount
            + (ended
                ? " is written off: the subscription has ended, nothing more is charged"
                : " is owed with the next charge")
            + (ended ? refundedBeforeReturn(sub, upgrade) : "");
    run.requests.upgradeReturned(upgrade);
    periods.returned(
        new SettledCharge(
            upgrade.cycle(), 0, upgrade.idempotencyKey(), upgrade.transactionId(), amount));
    run.phase(Phase.RECORDING_PAYMENT);
    run.record(
        RequestMoneyChanges.upgradeReturned(
            sub, ended ? null : amount, reversal, upgrade.idempotencyKey(), detail, now()));
    log.warn("subscription {}: {}", sub.subscriptionId(), detail);
    run.outcome(detail);
    if (ended) {
      return;
    }
    Subscription owed = current();
    // One notice per upgrade charge: its id derives from the charge's key (the request's digest).
    String digest =
        upgrade.idempotencyKey().substring(upgrade.idempotencyKey().lastIndexOf(':') + 1);
    run.notice(
        NotifyCustomerInput.about(NotifyCustomerInput.Kind.PAYMENT_FAILED, owed)
            .messageId(
                BillingIds.messageId(
                    owed.subscriptionId(), upgrade.cycle(), "upgrade-returned-" + digest))
            .cycle(upgrade.cycle())
            .amount(amount)
            .date(owed.schedule().dueDate(owed.cycle()))
            .reason(event.failureMessage() != null ? event.failureMessage() : event.failureCode())
            .at(now())
            .build());
  }

  /**
   * What was refunded of an upgrade charge the bank has now returned: the customer then has that
   * part back twice (a bank may return a debit months after it settled, so a refund cannot wait it
   * out). Said in the history and logged for an operator to recover; "" when nothing was refunded.
   */
  private String refundedBeforeReturn(Subscription sub, UpgradeCharge upgrade) {
    if (!WorkflowChanges.upgradeAfterEndRefunded()) {
      return "";
    }
    Period period = gateway.period(sub, upgrade.cycle());
    if (period == null) {
      return "";
    }
    Money refunded = Money.zero(upgrade.amount().currency());
    for (PeriodRefund refund : period.refunds()) {
      if (refund.made() && upgrade.transactionId().equals(refund.transactionId())) {
        refunded = refunded.plus(refund.amount());
      }
    }
    if (refunded.minor() == 0) {
      return "";
    }
    String sentence =
        "; "
            + refunded
            + " of it had been refunded before it came back: the customer has that back twice,"
            + " recover it from them";
    log.error(
        "REFUNDED AND RETURNED subscription {}: upgrade charge {}{}",
        sub.subscriptionId(),
        upgrade.transactionId(),
        sentence);
    return sentence;
  }

  private Subscription current() {
    return run.current();
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
