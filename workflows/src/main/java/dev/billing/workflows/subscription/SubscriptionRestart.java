package dev.billing.workflows.subscription;

import dev.billing.domain.BillingIds;
import dev.billing.domain.DunningPolicy;
import dev.billing.domain.GatewayRefunds;
import dev.billing.domain.PaymentEvent;
import dev.billing.domain.PendingUpgradeCharge;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.workflows.CollectionState;
import dev.billing.workflows.OpenPeriod;
import dev.billing.workflows.PendingRefund;
import dev.billing.workflows.PendingUpgrade;
import dev.billing.workflows.RequestState;
import dev.billing.workflows.SentKey;
import dev.billing.workflows.SettledCharge;
import dev.billing.workflows.SubscriptionInput;
import dev.billing.workflows.UpgradeCharge;
import dev.billing.workflows.activities.RefundInput;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The input that starts a subscription's workflow again from the system of record, after its
 * workflow went missing or ended while the record still bills (reconciliation's repair). What the
 * lost run held in memory is rebuilt from the period items:
 *
 * <ul>
 *   <li>an ERROR period whose dunning schedule (the worker's current policy, from its due date) is
 *       not used up goes back into dunning; if its last attempt got no answer from the gateway, the
 *       restarted run looks that key up before any new attempt, so money that moved is never
 *       charged twice; one whose schedule is used up is RESOLVING: its unknown last key and the
 *       next key the lost run may have sent are looked up at once, and only then is it collected,
 *       dunned to its final outcome, or left owed (manual repayment, waiver, stale age);
 *   <li>a PENDING_SETTLEMENT period is looked up at once (settle-by now);
 *   <li>the last {@value ChargeLedger#MAX_SETTLED} collected periods are remembered, so a return of
 *       their payment still reopens them;
 *   <li>a refund whose key the period item holds without a refund id (written before it was sent,
 *       no answer recorded) is pending again: sent again with its key while the gateway replays it,
 *       else left for reconciliation, never sent as a new refund;
 *   <li>an immediate upgrade whose charge had no answer (kept on the subscription item) is pending
 *       again: its key is looked up before the plan changes or the change is dropped;
 *   <li>the immediate upgrades' charges that collected in the latest period with any (kept on the
 *       subscription item) are known again: a return of one is recorded, and a cancellation with
 *       refundUnused refunds their unused days.
 * </ul>
 *
 * The lost run may have sent one more key than it recorded for each period it was collecting (the
 * record is written after the gateway answers): the first attempt of the record's cycle, and the
 * next attempt of every period in or after dunning (also after an unanswered last key: the lost run
 * sends it once that key proves unsent, and never that key again). Those keys are looked up before
 * they are sent, by a read that does not lag and never by relying on the gateway's replay of a key,
 * which it forgets after 24 hours. Pure function of its arguments.
 */
public final class SubscriptionRestart {
  private SubscriptionRestart() {}

  /**
   * @param periods every period of the subscription, in any order
   * @param configured the dunning policy the worker applies to new failures (an INCOMPLETE
   *     subscription's first payment is retried by its {@link DunningPolicy#firstPayment()})
   * @param now when the restart happens
   */
  public static SubscriptionInput fromRecord(
      Subscription record, List<Period> periods, DunningPolicy configured, Instant now) {
    Objects.requireNonNull(record, "record");
    Objects.requireNonNull(configured, "policy");
    // An INCOMPLETE subscription's only unpaid period is its first payment: its own schedule.
    DunningPolicy policy =
        record.status() == SubscriptionStatus.INCOMPLETE ? configured.firstPayment() : configured;
    List<Period> byCycle =
        periods.stream().sorted(Comparator.comparingLong(Period::cycle)).toList();
    List<OpenPeriod> open = new ArrayList<>();
    List<SettledCharge> settled = new ArrayList<>();
    List<SentKey> lostRunKeys = new ArrayList<>();
    List<PendingRefund> refunds = new ArrayList<>();
    lostRunKeys.add(lostRunKey(record, record.cycle(), 1));
    for (Period period : byCycle) {
      refunds.addAll(pendingRefunds(record, period));
      switch (period.status()) {
        case ERROR -> {
          if (record.status().isTerminal()) {
            break;
          }
          int used = DunningSchedule.usedAt(record.schedule(), period.dueDate(), policy, 0, now);
          int attempts = Math.max(1, period.attempts());
          boolean unanswered = unanswered(period.failureCode());
          lostRunKeys.add(lostRunKey(record, period.cycle(), attempts + 1));
          OpenPeriod dunning =
              OpenPeriod.dunning(
                  period.cycle(),
                  attempts,
                  unanswered,
                  policy,
                  period.dueDate(),
                  used,
                  period.failureCode(),
                  period.failureMessage(),
                  period.amount());
          // Used up: the lost run may still have sent the next key (a last retry, a manual
          // payment), so the period is judged only once the gateway has been asked.
          open.add(used < policy.retryAfterDays().size() ? dunning : dunning.resolving(now));
        }
        case PENDING_SETTLEMENT ->
            open.add(
                OpenPeriod.pending(
                    period.cycle(),
                    Math.max(1, period.attempts()),
                    policy,
                    period.dueDate(),
                    0,
                    now,
                    period.transactionId(),
                    period.amount()));
        case COMPLETED, REFUNDED, DISPUTED -> {
          // A refund, even in full, leaves the charge itself collected: the bank can still return
          // it, and a return must find it; so does a dispute until it is lost.
          if (period.transactionId() != null) {
            settled.add(settledCharge(record, period));
          }
        }
        default -> {}
      }
    }
    if (settled.size() > ChargeLedger.MAX_SETTLED) {
      settled = settled.subList(settled.size() - ChargeLedger.MAX_SETTLED, settled.size());
    }
    return new SubscriptionInput(
        record,
        true,
        new CollectionState(
            open,
            settled,
            List.of(),
            List.of(),
            List.of(),
            lostRunKeys.stream().map(SentKey::key).toList(),
            List.of(),
            lostRunKeys),
        null,
        new RequestState(
            List.of(),
            pendingUpgrades(record),
            refunds,
            record.lifecycle().upgradesPaid().stream().map(UpgradeCharge::of).toList()));
  }

  /**
   * The input that starts the workflow of an ended (cancelled) subscription again, to refund one of
   * its periods or to act on money that moved after the end. It knows every charge the record shows
   * collected (no cap: a run of an ended subscription never continues as new), so a return that
   * reaches it while it is open is recorded, and the periods still settling (from {@link
   * #fromRecord}); nothing is dunned after the end, so a pending debit that fails is closed unpaid
   * and the policy only fills the open periods' fields.
   *
   * @throws IllegalArgumentException when the record is not ended: a subscription that still bills
   *     and has no run is reconciliation's to restart, under the worker's dunning policy
   */
  public static SubscriptionInput ended(Subscription record, List<Period> periods, Instant now) {
    if (!record.status().isTerminal()) {
      throw new IllegalArgumentException(
          "subscription " + record.subscriptionId() + " is " + record.status() + ", not ended");
    }
    SubscriptionInput restart = fromRecord(record, periods, DunningPolicy.DEFAULT, now);
    CollectionState from = restart.collections();
    List<SettledCharge> settled =
        periods.stream()
            .filter(SubscriptionRestart::collected)
            .sorted(Comparator.comparingLong(Period::cycle))
            .map(p -> settledCharge(record, p))
            .toList();
    return new SubscriptionInput(
        record,
        true,
        new CollectionState(
            from.open(),
            settled,
            List.of(),
            List.of(),
            from.unpaid(),
            from.unverifiedKeys(),
            from.returned(),
            from.sentKeys()),
        null,
        restart.requests());
  }

  /**
   * {@link #ended} with a payment event that moved money after the run ended (a bank debit returned
   * weeks after it settled, a refund made in the gateway's dashboard, a card dispute) as the first
   * thing the run acts on: pending in the input, so it is acted on whether or not the signal that
   * carries it too has been handled yet (that copy is a duplicate by its id). The run records what
   * the event did (a return: the period unpaid, no dunning, the subscription left CANCELLED; a
   * refund: the period REFUNDED with it) and ends.
   *
   * @return empty when the record shows nothing the event's charge collected (never collected, or
   *     its return recorded already) or holds what the event reports already: starting a run would
   *     change nothing
   */
  public static Optional<SubscriptionInput> afterEnd(
      Subscription record, List<Period> periods, PaymentEvent event, Instant now) {
    Objects.requireNonNull(event, "event");
    SubscriptionInput input = ended(record, periods, now);
    CollectionState from = input.collections();
    boolean collectedByIt =
        from.settled().stream().anyMatch(c -> isAbout(event, c.idempotencyKey(), c.transactionId()))
            || input.requests().upgradeCharges().stream()
                .anyMatch(u -> isAbout(event, u.idempotencyKey(), u.transactionId()));
    if (!collectedByIt || !changesRecord(event, periods)) {
      return Optional.empty();
    }
    return Optional.of(
        new SubscriptionInput(
            record,
            true,
            new CollectionState(
                from.open(),
                from.settled(),
                List.of(event.eventId()),
                List.of(event),
                from.unpaid(),
                from.unverifiedKeys(),
                from.returned(),
                from.sentKeys()),
            null,
            input.requests()));
  }

  /**
   * Whether the event would change the record: a refund it reports that the period does not hold, a
   * dispute of a period not disputed yet, a won dispute of a disputed one. Delivered again once
   * recorded, it starts nothing.
   */
  private static boolean changesRecord(PaymentEvent event, List<Period> periods) {
    Period period =
        periods.stream().filter(p -> p.cycle() == event.cycle()).findFirst().orElse(null);
    return switch (event.type()) {
      case CHARGE_REFUNDED ->
          period != null
              && !GatewayRefunds.unrecorded(
                      period,
                      event.transactionId(),
                      event.amount(),
                      event.refunds(),
                      event.occurredAt())
                  .isEmpty();
      case CHARGE_DISPUTED -> period != null && period.status() != PeriodStatus.DISPUTED;
      case DISPUTE_WON -> period != null && period.status() == PeriodStatus.DISPUTED;
      default -> true;
    };
  }

  private static boolean collected(Period period) {
    return (period.status() == PeriodStatus.COMPLETED
            || period.status() == PeriodStatus.REFUNDED
            || period.status() == PeriodStatus.DISPUTED)
        && period.transactionId() != null;
  }

  /**
   * As the workflow matches an event to a charge: by key when it names one, else by transaction.
   */
  private static boolean isAbout(PaymentEvent event, String key, String transactionId) {
    return event.idempotencyKey() != null
        ? event.idempotencyKey().equals(key)
        : transactionId != null && transactionId.equals(event.transactionId());
  }

  private static SettledCharge settledCharge(Subscription record, Period period) {
    int attempt = Math.max(1, period.attempts());
    return new SettledCharge(
        period.cycle(),
        attempt,
        BillingIds.chargeKey(record.subscriptionId(), period.cycle(), attempt),
        period.transactionId(),
        period.amount());
  }

  /**
   * A key the lost run sent without recording it went to the record's payment method: a change of
   * method is recorded at a safe point, after the record of any charge sent before it. The method
   * of an earlier, recorded attempt is not kept, so that one is looked up account-wide.
   */
  private static SentKey lostRunKey(Subscription record, long cycle, int attempt) {
    return new SentKey(
        cycle,
        BillingIds.chargeKey(record.subscriptionId(), cycle, attempt),
        record.paymentMethod(),
        null);
  }

  private static List<PendingUpgrade> pendingUpgrades(Subscription record) {
    PendingUpgradeCharge charge = record.lifecycle().upgradeCharge();
    return charge == null
        ? List.of()
        : List.of(
            new PendingUpgrade(
                charge.requestId(),
                charge.idempotencyKey(),
                charge.sku(),
                charge.price(),
                charge.amount(),
                charge.paidCycle(),
                charge.paymentMethod(),
                charge.sentFrom(),
                SubscriptionChanges.SYSTEM_ACTOR,
                "restarted from the record",
                0,
                charge.term()));
  }

  private static List<PendingRefund> pendingRefunds(Subscription record, Period period) {
    return period.refunds().stream()
        .filter(r -> !r.made())
        .map(
            r ->
                new PendingRefund(
                    r.requestId() == null ? r.idempotencyKey() : r.requestId(),
                    new RefundInput(
                        record.accountId(),
                        record.subscriptionId(),
                        period.cycle(),
                        r.transactionId(),
                        r.amount(),
                        r.idempotencyKey(),
                        "restarted from the record"),
                    r.transactionId().equals(period.transactionId()) ? null : r.transactionId(),
                    SubscriptionChanges.SYSTEM_ACTOR,
                    r.sentAt(),
                    0))
        .toList();
  }

  /**
   * Whether a period's last failure left its outcome unknown: the gateway never answered, or it
   * could not find a charge it had accepted.
   */
  static boolean unanswered(String failureCode) {
    return SubscriptionChanges.GATEWAY_UNAVAILABLE.equals(failureCode)
        || SubscriptionChanges.CHARGE_NOT_FOUND.equals(failureCode);
  }
}
