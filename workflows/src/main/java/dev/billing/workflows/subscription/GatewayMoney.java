package dev.billing.workflows.subscription;

import dev.billing.domain.BillingIds;
import dev.billing.domain.GatewayRefunds;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentEvent;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodRefund;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Subscription;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.UpgradeCharge;
import dev.billing.workflows.activities.NotifyCustomerInput;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;

/**
 * Money moved at the gateway outside billing's calls, read from the period item each time (the
 * record, not the run's memory, says what is recorded, so a run restarted from it agrees):
 *
 * <ul>
 *   <li>a refund made in the gateway's dashboard: what {@link GatewayRefunds} finds unrecorded is
 *       added to the period under the gateway's refund ids, with its running total and a refund
 *       notice per refund (its message id from the refund id, so sent once);
 *   <li>a card dispute: the collected period is DISPUTED until it is decided; won, it is collected
 *       again. A lost dispute comes as a return (CHARGE_RETURNED) and is recorded as a returned
 *       payment is: the period owed again, or closed unpaid after the end. A dispute of an
 *       upgrade's charge is recorded in the history alone (it has no period of its own); lost, it
 *       is a returned upgrade charge.
 * </ul>
 *
 * Runs recorded before these existed had such events take no effect; the version markers keep their
 * replay that way.
 */
final class GatewayMoney {
  private static final Logger log = Workflow.getLogger(GatewayMoney.class);

  private final RunState run;
  private final Gateway gateway;

  GatewayMoney(RunState run, Gateway gateway) {
    this.run = run;
    this.gateway = gateway;
  }

  /**
   * Whether this run records the event here; asked only for the event types whose commands the
   * change added, so a run that never meets one carries no marker.
   */
  boolean takes(PaymentEvent event) {
    return switch (event.type()) {
      case CHARGE_REFUNDED -> WorkflowChanges.gatewayRefunds();
      case CHARGE_DISPUTED, DISPUTE_WON -> WorkflowChanges.cardDisputes();
      default -> false;
    };
  }

  void onEvent(PaymentEvent event) {
    Subscription sub = run.current();
    if (!sub.subscriptionId().equals(event.subscriptionId())) {
      log.info("payment event {} is about another subscription", event.eventId());
      return;
    }
    Period stored = gateway.period(sub, event.cycle());
    switch (event.type()) {
      case CHARGE_REFUNDED -> refunded(event, stored);
      case CHARGE_DISPUTED -> disputed(event, stored);
      case DISPUTE_WON -> won(event, stored);
      default -> throw new IllegalArgumentException("not a gateway money event: " + event.type());
    }
  }

  private void refunded(PaymentEvent event, Period stored) {
    String source = source(event);
    String why = notRefundable(event, stored);
    if (why != null) {
      ignored(source, why);
      return;
    }
    List<PeriodRefund> added =
        GatewayRefunds.unrecorded(
            stored, event.transactionId(), event.amount(), event.refunds(), event.occurredAt());
    Money recorded = GatewayRefunds.recorded(stored, event.transactionId());
    if (added.isEmpty()) {
      String detail =
          "cycle "
              + stored.cycle()
              + ": "
              + source
              + " says "
              + event.amount()
              + " refunded of "
              + event.transactionId()
              + ", the period records "
              + recorded
              + (event.amount() != null && event.amount().minor() > recorded.minor()
                  ? "; a refund of billing's without an answer may be the difference: its"
                      + " re-send records it, reconciliation compares again"
                  : ": nothing new");
      log.info("{}", detail);
      run.outcome(detail);
      return;
    }
    Subscription sub = run.current();
    Money sum = Money.zero(stored.amount().currency());
    for (PeriodRefund refund : added) {
      sum = sum.plus(refund.amount());
    }
    boolean own = event.transactionId().equals(stored.transactionId());
    String detail =
        "refunded "
            + sum
            + (own
                ? " of cycle " + stored.cycle()
                : " of the upgrade charge " + event.transactionId())
            + " at the gateway, outside billing ("
            + (own ? recorded.plus(sum) + " of " + stored.amount() + " in all" : "its own total")
            + "), refund "
            + added.stream().map(PeriodRefund::refundId).collect(Collectors.joining(", "))
            + " ["
            + source
            + "]";
    run.phase(Phase.RECORDING_PAYMENT);
    run.record(GatewayMoneyChanges.refunded(sub, stored, added, detail, now()));
    for (PeriodRefund refund : added) {
      run.notice(
          NotifyCustomerInput.about(NotifyCustomerInput.Kind.REFUND_ISSUED, run.current())
              .messageId(
                  BillingIds.messageId(
                      sub.subscriptionId(), stored.cycle(), "refund-" + refund.refundId()))
              .cycle(stored.cycle())
              .amount(refund.amount())
              .date(sub.schedule().dateAt(now()))
              .reason(refund.refundId())
              .at(now())
              .build());
    }
    log.warn("subscription {}: {}", sub.subscriptionId(), detail);
    run.outcome(detail);
  }

  /** Why the event names no charge of this period that holds money; null when it does. */
  private String notRefundable(PaymentEvent event, Period stored) {
    if (stored == null) {
      return "the subscription has no period " + event.cycle();
    }
    if (event.transactionId() == null || event.amount() == null) {
      return "it names no charge or no amount refunded";
    }
    if (event.transactionId().equals(stored.transactionId())) {
      return collected(stored.status())
          ? null
          : "period " + stored.cycle() + " is " + stored.status() + ", not collected";
    }
    boolean upgrade =
        BillingIds.isChangeChargeKey(stored.subscriptionId(), event.idempotencyKey())
            || run.requests.upgradeCharge(null, event.transactionId()) != null
            || stored.refunds().stream()
                .anyMatch(r -> r.transactionId().equals(event.transactionId()));
    return upgrade
        ? null
        : event.transactionId()
            + " is not the charge that collected period "
            + stored.cycle()
            + " ("
            + stored.transactionId()
            + ")";
  }

  private void disputed(PaymentEvent event, Period stored) {
    String source = source(event);
    UpgradeCharge upgrade = disputedUpgrade(event, stored);
    if (upgrade != null) {
      upgradeDisputed(upgrade, event, source);
      return;
    }
    if (!ownCharge(event, stored) || !collected(stored.status())) {
      ignored(source, stored == null ? "no such period" : disputeMismatch(event, stored));
      return;
    }
    if (stored.status() == PeriodStatus.DISPUTED) {
      ignored(source, "period " + stored.cycle() + " is DISPUTED already");
      return;
    }
    String detail =
        "the card holder disputed "
            + (event.amount() != null ? event.amount() : stored.amount())
            + " of cycle "
            + stored.cycle()
            + " ("
            + (event.failureMessage() != null ? event.failureMessage() : event.failureCode())
            + "): DISPUTED until the dispute is decided; answer it at the gateway ["
            + source
            + "]";
    run.phase(Phase.RECORDING_PAYMENT);
    run.record(
        GatewayMoneyChanges.disputed(
            run.current(), stored, event.failureCode(), event.failureMessage(), detail, now()));
    log.warn("DISPUTE: subscription {}: {}", stored.subscriptionId(), detail);
    run.outcome(detail);
  }

  private void won(PaymentEvent event, Period stored) {
    String source = source(event);
    UpgradeCharge upgrade = disputedUpgrade(event, stored);
    if (upgrade != null) {
      upgradeDisputeWon(upgrade, source);
      return;
    }
    if (!ownCharge(event, stored) || stored.status() != PeriodStatus.DISPUTED) {
      ignored(
          source,
          stored == null
              ? "no such period"
              : "period " + stored.cycle() + " is " + stored.status() + ", not DISPUTED");
      return;
    }
    String detail =
        "the dispute of cycle "
            + stored.cycle()
            + " was won: collected again ("
            + stored.amount()
            + ") ["
            + source
            + "]";
    run.phase(Phase.RECORDING_PAYMENT);
    run.record(GatewayMoneyChanges.disputeWon(run.current(), stored, detail, now()));
    log.info("subscription {}: {}", stored.subscriptionId(), detail);
    run.outcome(detail);
  }

  /**
   * The collected upgrade (or term switch) charge a dispute event names, when this run records such
   * disputes; null for the period's own charge and for a charge no upgrade here holds (a returned
   * one among them: its money is back already). The change id is asked only when an upgrade charge
   * matches, so a run that never meets one carries no marker.
   */
  private UpgradeCharge disputedUpgrade(PaymentEvent event, Period stored) {
    if (ownCharge(event, stored) || event.transactionId() == null) {
      return null;
    }
    UpgradeCharge upgrade =
        run.requests.upgradeCharge(event.idempotencyKey(), event.transactionId());
    if (upgrade == null || !event.transactionId().equals(upgrade.transactionId())) {
      return null;
    }
    return WorkflowChanges.upgradeChargeDisputes() ? upgrade : null;
  }

  /**
   * An upgrade's charge disputed. It has no period of its own to mark DISPUTED: the history entry
   * ({@code PAYMENT_DISPUTED}, which tells the merchant {@code payment.disputed}) names it, and the
   * charge stays collected until the dispute is decided. Lost, the gateway's return is recorded as
   * any returned upgrade charge is (owed again with the next charge); won, nothing is owed.
   */
  private void upgradeDisputed(UpgradeCharge upgrade, PaymentEvent event, String source) {
    Money amount = event.amount() != null ? event.amount() : upgrade.amount();
    String detail =
        "the card holder disputed "
            + amount
            + " of the upgrade charge "
            + upgrade.transactionId()
            + " (key "
            + upgrade.idempotencyKey()
            + ") in cycle "
            + upgrade.cycle()
            + " ("
            + (event.failureMessage() != null ? event.failureMessage() : event.failureCode())
            + "): disputed until it is decided; answer it at the gateway ["
            + source
            + "]";
    run.phase(Phase.RECORDING_PAYMENT);
    run.record(
        GatewayMoneyChanges.upgradeDisputed(
            run.current(), upgrade.idempotencyKey(), detail, now()));
    log.warn("DISPUTE: subscription {}: {}", run.current().subscriptionId(), detail);
    run.outcome(detail);
  }

  private void upgradeDisputeWon(UpgradeCharge upgrade, String source) {
    String detail =
        "the dispute of the upgrade charge "
            + upgrade.transactionId()
            + " (key "
            + upgrade.idempotencyKey()
            + ") was won: "
            + upgrade.amount()
            + " stays collected, nothing is owed ["
            + source
            + "]";
    run.phase(Phase.RECORDING_PAYMENT);
    run.record(
        GatewayMoneyChanges.upgradeDisputeWon(
            run.current(), upgrade.idempotencyKey(), detail, now()));
    log.info("subscription {}: {}", run.current().subscriptionId(), detail);
    run.outcome(detail);
  }

  private static boolean ownCharge(PaymentEvent event, Period stored) {
    return stored != null
        && stored.transactionId() != null
        && stored.transactionId().equals(event.transactionId());
  }

  private static String disputeMismatch(PaymentEvent event, Period stored) {
    return stored.transactionId() == null || !stored.transactionId().equals(event.transactionId())
        ? event.transactionId()
            + " is not the charge that collected period "
            + stored.cycle()
            + ": an operator answers the dispute and settles it by hand"
        : "period " + stored.cycle() + " is " + stored.status() + ", not collected";
  }

  private static boolean collected(PeriodStatus status) {
    return status == PeriodStatus.COMPLETED
        || status == PeriodStatus.REFUNDED
        || status == PeriodStatus.DISPUTED;
  }

  private void ignored(String source, String why) {
    log.info("payment event has no effect: {}: {}", source, why);
    run.outcome(source + " has no effect: " + why);
  }

  private static String source(PaymentEvent event) {
    return event.type() + " " + event.eventId();
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
