package dev.billing.workflows;

import dev.billing.domain.BillingIds;
import dev.billing.domain.DunningPolicy;
import dev.billing.domain.Money;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Objects;

/**
 * A period that is not settled yet: in dunning (its last attempt failed and retries remain) or
 * waiting for a bank debit to settle. Immutable; the workflow replaces it on every change and
 * carries it over continue-as-new in {@link CollectionState}.
 *
 * @param attempts collection attempts made so far; the last one used key {@code
 *     charge:<sub>:<cycle>:<attempts>}
 * @param outcomeUnknown the last attempt got no answer and the gateway could not be asked yet: the
 *     next attempt must first look that key up
 * @param policy the dunning policy snapshotted when the period first failed; null while it has not
 * @param dunningFrom the date retries count from: the due date, or the date a settled payment came
 *     back
 * @param retriesUsed how many of the policy's retry dates are used up (passed or attempted)
 * @param settleBy while PENDING_SETTLEMENT: when to stop waiting for the event and ask the gateway;
 *     while RESOLVING: when to ask the gateway next
 * @param transactionId while PENDING_SETTLEMENT: the gateway's id of the pending charge
 * @param retryNow retry at once (the payment method was replaced), ahead of the schedule
 * @param amount what the period is charged (the price and balance of its first attempt); null in
 *     periods carried before it was kept, which are charged the subscription's price
 */
public record OpenPeriod(
    long cycle,
    State state,
    int attempts,
    boolean outcomeUnknown,
    DunningPolicy policy,
    LocalDate dunningFrom,
    int retriesUsed,
    Instant settleBy,
    String transactionId,
    String failureCode,
    String failureMessage,
    boolean retryNow,
    Money amount) {

  public enum State {
    DUNNING,
    PENDING_SETTLEMENT,
    /**
     * The dunning schedule is used up but the last attempt's outcome is unknown, or a lost run may
     * have sent the next attempt's key without recording it: no new attempt, only look-ups of those
     * keys at {@code settleBy} until the gateway answers; the policy's final outcome (or the period
     * being left unpaid) waits for that answer, since judging it now would guess that the money did
     * not move.
     */
    RESOLVING
  }

  public OpenPeriod {
    Objects.requireNonNull(state, "state");
    if (state != State.PENDING_SETTLEMENT) {
      Objects.requireNonNull(policy, "policy");
      Objects.requireNonNull(dunningFrom, "dunningFrom");
    }
    if (state != State.DUNNING) {
      Objects.requireNonNull(settleBy, "settleBy");
    }
  }

  public String lastKey(String subscriptionId) {
    return BillingIds.chargeKey(subscriptionId, cycle, attempts);
  }

  public static OpenPeriod pending(
      long cycle,
      int attempts,
      DunningPolicy policy,
      LocalDate dunningFrom,
      int retriesUsed,
      Instant settleBy,
      String transactionId,
      Money amount) {
    return new OpenPeriod(
        cycle,
        State.PENDING_SETTLEMENT,
        attempts,
        false,
        policy,
        dunningFrom,
        retriesUsed,
        settleBy,
        transactionId,
        null,
        null,
        false,
        amount);
  }

  public static OpenPeriod dunning(
      long cycle,
      int attempts,
      boolean outcomeUnknown,
      DunningPolicy policy,
      LocalDate dunningFrom,
      int retriesUsed,
      String failureCode,
      String failureMessage,
      Money amount) {
    return new OpenPeriod(
        cycle,
        State.DUNNING,
        attempts,
        outcomeUnknown,
        policy,
        dunningFrom,
        retriesUsed,
        null,
        null,
        failureCode,
        failureMessage,
        false,
        amount);
  }

  /**
   * A period whose schedule is used up while a key's outcome is unknown: its last attempt's when
   * {@link #outcomeUnknown}, else the next one a lost run may have sent. {@link #retryNow} (a new
   * payment method) is kept: it is charged at once when the gateway says no money moved.
   */
  public OpenPeriod resolving(Instant askAt) {
    return new OpenPeriod(
        cycle,
        State.RESOLVING,
        attempts,
        outcomeUnknown,
        policy,
        dunningFrom,
        retriesUsed,
        askAt,
        transactionId,
        failureCode,
        failureMessage,
        retryNow,
        amount);
  }

  public OpenPeriod withRetryNow(boolean now) {
    return new OpenPeriod(
        cycle,
        state,
        attempts,
        outcomeUnknown,
        policy,
        dunningFrom,
        retriesUsed,
        settleBy,
        transactionId,
        failureCode,
        failureMessage,
        now,
        amount);
  }

  public OpenPeriod withOutcomeKnown() {
    return new OpenPeriod(
        cycle,
        state,
        attempts,
        false,
        policy,
        dunningFrom,
        retriesUsed,
        settleBy,
        transactionId,
        failureCode,
        failureMessage,
        retryNow,
        amount);
  }

  public OpenPeriod withRetriesUsed(int used) {
    return new OpenPeriod(
        cycle,
        state,
        attempts,
        outcomeUnknown,
        policy,
        dunningFrom,
        used,
        settleBy,
        transactionId,
        failureCode,
        failureMessage,
        retryNow,
        amount);
  }

  public OpenPeriod withSettleBy(Instant at) {
    return new OpenPeriod(
        cycle,
        state,
        attempts,
        outcomeUnknown,
        policy,
        dunningFrom,
        retriesUsed,
        at,
        transactionId,
        failureCode,
        failureMessage,
        retryNow,
        amount);
  }
}
