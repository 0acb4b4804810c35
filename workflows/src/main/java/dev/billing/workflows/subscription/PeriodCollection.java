package dev.billing.workflows.subscription;

import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.PaymentEvent;
import dev.billing.workflows.CollectionState;
import dev.billing.workflows.OpenPeriod;
import dev.billing.workflows.OpenPeriod.State;
import dev.billing.workflows.SettledCharge;
import dev.billing.workflows.UnpaidPeriod;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The workflow's memory of payments within a run: open periods and unpaid ones, recently settled
 * and returned charges ({@link ChargeLedger}), and payment events ({@link EventInbox}). Decides
 * what an event means from this state alone, so a duplicate or an out-of-order event has no effect.
 * Deterministic; only workflow threads touch it.
 */
final class PeriodCollection {

  /** What an event asks of the workflow. */
  enum Effect {
    /** The pending (or unanswered) charge succeeded: collect the period. */
    SETTLE,
    /** The pending charge failed: the period enters dunning. */
    FAIL,
    /**
     * Success of an attempt known to have failed or come back: a returned debit's late success
     * (whose return a run restarted from the record cannot know) or a gateway correcting itself.
     * The gateway's exact read decides; the event alone never collects.
     */
    CONFIRM_SUCCESS,
    /** The unanswered charge failed: no need to look it up before the next attempt. */
    RESOLVE_FAILED,
    /** A settled charge came back: reopen its period and dun it. */
    RETURN_SETTLED,
    /** The pending charge settled and came back before we heard it settled. */
    RETURN_PENDING,
    NONE
  }

  private final String subscriptionId;
  private final Map<Long, OpenPeriod> open = new TreeMap<>();
  private final Map<Long, UnpaidPeriod> unpaid = new TreeMap<>();
  private final ChargeLedger charges;
  private final EventInbox inbox;

  /** The keys sent and the keys a lost run may have sent. */
  final SentKeys keys;

  PeriodCollection(String subscriptionId, CollectionState state) {
    this.subscriptionId = subscriptionId;
    state.open().forEach(p -> open.put(p.cycle(), p));
    charges = new ChargeLedger(state.settled(), state.returned());
    inbox = new EventInbox(state.seenEventIds(), state.pendingEvents());
    state.unpaid().forEach(p -> unpaid.put(p.cycle(), p));
    keys = new SentKeys(state.sentKeys(), state.unverifiedKeys());
  }

  CollectionState carry() {
    return new CollectionState(
        new ArrayList<>(open.values()),
        charges.settledCharges(),
        inbox.seenEventIds(),
        inbox.pendingEvents(),
        new ArrayList<>(unpaid.values()),
        keys.unverifiedKeys(),
        charges.returnedCharges(),
        keys.stillNeeded(cycle -> open.containsKey(cycle) || unpaid.containsKey(cycle)));
  }

  /** Periods whose dunning ended unpaid, oldest first. */
  List<UnpaidPeriod> unpaid() {
    return List.copyOf(unpaid.values());
  }

  UnpaidPeriod unpaid(long cycle) {
    return unpaid.get(cycle);
  }

  void putUnpaid(UnpaidPeriod period) {
    unpaid.put(period.cycle(), period);
  }

  void removeUnpaid(long cycle) {
    unpaid.remove(cycle);
  }

  /** Still owed: in dunning or unpaid after it. The subscription stays PAST_DUE while any is. */
  boolean owedOtherThan(long cycle) {
    return dunningOtherThan(cycle) || unpaid.keySet().stream().anyMatch(c -> c != cycle);
  }

  /**
   * Takes a signalled event: only de-duplicates it by id and queues it. What it means is decided on
   * the main thread at a safe point ({@link #effectOf}), never here: the main thread changes this
   * state on both sides of a blocking record, so a meaning read by a handler in that gap could be
   * wrong (a settlement or a return dropped as "no effect"). Returns why it was dropped (a
   * duplicate), or null when it was queued.
   */
  String receive(PaymentEvent event) {
    return inbox.receive(event);
  }

  boolean hasEvents() {
    return inbox.hasEvents();
  }

  PaymentEvent nextEvent() {
    return inbox.nextEvent();
  }

  Effect effectOf(PaymentEvent event) {
    if (!subscriptionId.equals(event.subscriptionId()) || returnedFor(event) != null) {
      // A returned charge is final: its success (sent before the return, or sent again) collects
      // nothing, and its return is recorded already.
      return Effect.NONE;
    }
    OpenPeriod period = openFor(event);
    boolean pending = period != null && period.state() == State.PENDING_SETTLEMENT;
    boolean unknown =
        period != null && period.state() != State.PENDING_SETTLEMENT && period.outcomeUnknown();
    return switch (event.type()) {
      // Money moved for a period we still hold open, whichever of its attempts it was: collect it.
      case CHARGE_SUCCEEDED -> {
        OpenPeriod paid = openForAnyAttempt(event);
        yield paid == null
            ? Effect.NONE
            : awaiting(paid, attemptOf(event, paid)) ? Effect.SETTLE : Effect.CONFIRM_SUCCESS;
      }
      case CHARGE_FAILED -> pending ? Effect.FAIL : unknown ? Effect.RESOLVE_FAILED : Effect.NONE;
      // A charge we never heard settle came back (pending, or sent without an answer): the
      // attempt is known now, returned, and its success can no longer collect anything.
      case CHARGE_RETURNED ->
          settledFor(event) != null
              ? Effect.RETURN_SETTLED
              : pending || unknown ? Effect.RETURN_PENDING : Effect.NONE;
      // Recorded from the period item by GatewayMoney where the run's code does.
      case CHARGE_REFUNDED, CHARGE_DISPUTED, DISPUTE_WON -> Effect.NONE;
    };
  }

  /** The open period whose latest attempt the event is about. */
  OpenPeriod openFor(PaymentEvent event) {
    for (OpenPeriod period : open.values()) {
      if (ChargeLedger.matches(event, period.lastKey(subscriptionId), period.transactionId())) {
        return period;
      }
    }
    return null;
  }

  /** The open period any of whose attempts (not only the latest) the event is about. */
  OpenPeriod openForAnyAttempt(PaymentEvent event) {
    for (OpenPeriod period : open.values()) {
      if (attemptOf(event, period) > 0) {
        return period;
      }
    }
    return null;
  }

  /**
   * Whether {@code attempt} of {@code period} still awaits its outcome: the last one while pending
   * or unanswered, or the next one a lost run may have sent. Any other attempt is known to have
   * failed or come back, as far as this run knows.
   */
  static boolean awaiting(OpenPeriod period, int attempt) {
    return attempt > period.attempts()
        || attempt == period.attempts()
            && (period.state() == State.PENDING_SETTLEMENT || period.outcomeUnknown());
  }

  /**
   * Which attempt of {@code period} the event is about; 0 when none. The next attempt counts when a
   * lost run may have sent it.
   */
  int attemptOf(PaymentEvent event, OpenPeriod period) {
    if (event.idempotencyKey() == null) {
      return period.transactionId() != null && period.transactionId().equals(event.transactionId())
          ? period.attempts()
          : 0;
    }
    if (event.idempotencyKey().equals(nextKey(period)) && keys.unverified(nextKey(period))) {
      return period.attempts() + 1;
    }
    for (int attempt = period.attempts(); attempt >= 1; attempt--) {
      if (event
          .idempotencyKey()
          .equals(BillingIds.chargeKey(subscriptionId, period.cycle(), attempt))) {
        return attempt;
      }
    }
    return 0;
  }

  SettledCharge settledFor(PaymentEvent event) {
    return charges.settledFor(event);
  }

  /** A returned charge the event is about, or null. */
  SettledCharge returnedFor(PaymentEvent event) {
    return charges.returnedFor(event);
  }

  /** Why an event has no effect, for the log. */
  String whyIgnored(PaymentEvent event) {
    if (!subscriptionId.equals(event.subscriptionId())) {
      return "event " + event.eventId() + " is about subscription " + event.subscriptionId();
    }
    if (returnedFor(event) != null) {
      return event.type()
          + " "
          + event.eventId()
          + " about a charge that was returned: already recorded";
    }
    if (settledFor(event) != null) {
      return event.type() + " " + event.eventId() + " after the charge succeeded: already settled";
    }
    if (BillingIds.isChangeChargeKey(subscriptionId, event.idempotencyKey())) {
      return event.type()
          + " "
          + event.eventId()
          + " is about a plan change's charge ("
          + event.idempotencyKey()
          + "), recorded with that change";
    }
    return event.type() + " " + event.eventId() + " matches no charge awaiting an outcome";
  }

  /**
   * A success that collects nothing means money moved for a period that is already collected (by
   * another attempt), or no longer open (left unpaid): possibly a second charge. Only a repeat of
   * the very charge that collected the period is harmless, and so is the success of a plan change's
   * own charge (its key is not a period's; the change recorded it when it was made), and that of a
   * charge that was returned (its money came back).
   */
  boolean possibleDoubleCharge(PaymentEvent event) {
    return event.type() == PaymentEvent.Type.CHARGE_SUCCEEDED
        && subscriptionId.equals(event.subscriptionId())
        && !BillingIds.isChangeChargeKey(subscriptionId, event.idempotencyKey())
        && openForAnyAttempt(event) == null
        && settledFor(event) == null
        && returnedFor(event) == null;
  }

  OpenPeriod open(long cycle) {
    return open.get(cycle);
  }

  List<OpenPeriod> openPeriods() {
    return List.copyOf(open.values());
  }

  void put(OpenPeriod period) {
    open.put(period.cycle(), period);
  }

  void remove(long cycle) {
    open.remove(cycle);
  }

  /** See {@link ChargeLedger#settled}. */
  void settled(SettledCharge charge) {
    charges.settled(charge);
  }

  /** See {@link ChargeLedger#returned}. */
  void returned(SettledCharge charge) {
    charges.returned(charge);
  }

  /**
   * True while a period other than {@code cycle} is in dunning: the subscription stays PAST_DUE.
   */
  boolean dunningOtherThan(long cycle) {
    return open.values().stream()
        .anyMatch(p -> p.cycle() != cycle && p.state() != State.PENDING_SETTLEMENT);
  }

  /**
   * True while money may still move for a period: a pending settlement, an unanswered attempt, or a
   * next attempt a lost run may have sent.
   */
  boolean awaitingOutcome() {
    return open.values().stream()
        .anyMatch(
            p ->
                p.state() == State.PENDING_SETTLEMENT
                    || p.outcomeUnknown()
                    || keys.unverified(nextKey(p)));
  }

  private String nextKey(OpenPeriod period) {
    return BillingIds.chargeKey(subscriptionId, period.cycle(), period.attempts() + 1);
  }

  /**
   * The open period that needs the workflow first (earliest cycle on a tie); null when none does.
   */
  OpenPeriod next(BillingSchedule schedule, Instant now) {
    OpenPeriod first = null;
    Instant firstAt = null;
    for (OpenPeriod period : open.values()) {
      Instant at = actionAt(schedule, period, now);
      if (at != null && (firstAt == null || at.isBefore(firstAt))) {
        first = period;
        firstAt = at;
      }
    }
    return first;
  }

  /** The earliest-cycle open period that needs the workflow now, or null. */
  OpenPeriod firstDue(BillingSchedule schedule, Instant now) {
    for (OpenPeriod period : open.values()) {
      Instant at = actionAt(schedule, period, now);
      if (at != null && !at.isAfter(now)) {
        return period;
      }
    }
    return null;
  }

  /**
   * While paused only look-ups go on (no charge): the first pending or resolving period whose wait
   * is over, or null.
   */
  OpenPeriod firstSettlementDue(Instant now) {
    for (OpenPeriod period : open.values()) {
      if (period.state() != State.DUNNING && !period.settleBy().isAfter(now)) {
        return period;
      }
    }
    return null;
  }

  /** When the first pending or resolving period is looked up next; null when none is. */
  Instant nextSettlement() {
    Instant first = null;
    for (OpenPeriod period : open.values()) {
      if (period.state() != State.DUNNING && (first == null || period.settleBy().isBefore(first))) {
        first = period.settleBy();
      }
    }
    return first;
  }

  static Instant actionAt(BillingSchedule schedule, OpenPeriod period, Instant now) {
    if (period.state() != State.DUNNING) {
      return period.settleBy();
    }
    return period.retryNow() ? now : DunningSchedule.nextRetryAt(schedule, period);
  }
}
