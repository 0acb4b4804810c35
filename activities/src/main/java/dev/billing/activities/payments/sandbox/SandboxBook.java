package dev.billing.activities.payments.sandbox;

import dev.billing.activities.payments.ChargeQuery;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayChargeState.Status;
import dev.billing.domain.ChargeRefund;
import dev.billing.domain.Money;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every charge and refund the sandbox ever made, never pruned (unlike the idempotency records,
 * which forget a key after a day), and the reads of them: a look-up and a list are exact at once,
 * as Stripe's list endpoints are; a search lags, as Stripe's search does. Not thread-safe: the
 * gateway's lock guards it.
 */
final class SandboxBook {
  /** The one that moved money first (not FAILED), then the newest. */
  private static final Comparator<GatewayChargeState> MOVED_MONEY_FIRST =
      Comparator.comparing((GatewayChargeState s) -> s.status() == Status.FAILED)
          .thenComparing(GatewayChargeState::createdAt, Comparator.reverseOrder());

  private final Map<String, List<SandboxCharge>> chargesByKey = new HashMap<>();
  private final Map<String, List<SandboxRefund>> refundsByKey = new HashMap<>();
  private final Map<String, SandboxCharge> byTransaction = new HashMap<>();
  private final List<SandboxCharge> charges = new ArrayList<>();
  private final List<SandboxRefund> refunds = new ArrayList<>();

  /** The sequence the next charge made with {@code key} gets (from 1). */
  int nextChargeSequence(String key) {
    return chargesByKey.getOrDefault(key, List.of()).size() + 1;
  }

  /** The sequence the next refund made with {@code key} gets (from 1). */
  int nextRefundSequence(String key) {
    return refundsByKey.getOrDefault(key, List.of()).size() + 1;
  }

  void add(SandboxCharge charge) {
    chargesByKey.computeIfAbsent(charge.idempotencyKey(), k -> new ArrayList<>()).add(charge);
    byTransaction.put(charge.transactionId(), charge);
    charges.add(charge);
  }

  void add(SandboxRefund refund) {
    refundsByKey.computeIfAbsent(refund.idempotencyKey(), k -> new ArrayList<>()).add(refund);
    refunds.add(refund);
  }

  /** Null when no charge has this id. */
  SandboxCharge charge(String transactionId) {
    return byTransaction.get(transactionId);
  }

  /** Every charge, oldest first; a view, read under the gateway's lock. */
  List<SandboxCharge> charges() {
    return Collections.unmodifiableList(charges);
  }

  /** Every refund, oldest first; a view, read under the gateway's lock. */
  List<SandboxRefund> refunds() {
    return Collections.unmodifiableList(refunds);
  }

  /** Which of the charges made with its key this one is (from 1): event ids name it. */
  int sequenceOf(SandboxCharge charge) {
    return chargesByKey.get(charge.idempotencyKey()).indexOf(charge) + 1;
  }

  /** Which of the refunds made with its key this one is (from 1): event ids name it. */
  int sequenceOf(SandboxRefund refund) {
    return refundsByKey.get(refund.idempotencyKey()).indexOf(refund) + 1;
  }

  long dashboardRefunds(String transactionId) {
    return refunds.stream()
        .filter(r -> r.transactionId().equals(transactionId) && SandboxIds.isDashboard(r))
        .count();
  }

  Money refundedOf(String transactionId) {
    SandboxCharge charge = byTransaction.get(transactionId);
    Money total = Money.zero(charge.amount().currency());
    for (SandboxRefund r : refunds) {
      if (r.transactionId().equals(transactionId)) {
        total = total.plus(r.amount());
      }
    }
    return total;
  }

  /**
   * The charges with the query's key created at or after {@code from}, narrowed to the query's
   * customer as Stripe's list by customer is; of several (the key was reused after it was
   * forgotten) the one that moved money wins, then the newest.
   */
  GatewayChargeState lookUp(ChargeQuery query, Instant from, Instant now) {
    String key = query.idempotencyKey();
    String customer = RequestParameters.customerOf(query.paymentMethodToken());
    return chargesByKey.getOrDefault(key, List.of()).stream()
        .filter(c -> !c.at().isBefore(from))
        .filter(c -> customer == null || customer.equals(RequestParameters.customerOf(c.token())))
        .map(c -> state(c, now))
        .min(MOVED_MONEY_FIRST)
        .orElseGet(() -> GatewayChargeState.notFound(key));
  }

  /** The charges with the key that have been made at least {@code lag} ago, oldest first. */
  List<GatewayChargeState> search(String key, Duration lag, Instant now) {
    return chargesByKey.getOrDefault(key, List.of()).stream()
        .filter(c -> !c.at().plus(lag).isAfter(now))
        .map(c -> state(c, now))
        .toList();
  }

  /** The charges made in {@code [from, to)}, oldest first. */
  List<GatewayChargeState> list(Instant from, Instant to, Instant now) {
    return charges.stream()
        .filter(c -> within(c.at(), from, to))
        .sorted(Comparator.comparing(SandboxCharge::at))
        .map(c -> state(c, now))
        .toList();
  }

  /** The port's view of a charge at {@code now}: what a bank debit or a dispute has become. */
  GatewayChargeState state(SandboxCharge c, Instant now) {
    Status status = c.statusAt(now);
    String code = null;
    String message = null;
    if (status == Status.FAILED) {
      code = c.declineCode();
      message = c.declineMessage();
    } else if (status == Status.RETURNED && c.returnsAt() != null) {
      code = SandboxPaymentMethods.RETURN_CODE;
      message = SandboxPaymentMethods.RETURN_MESSAGE;
    } else if (status == Status.RETURNED) {
      code = SandboxPaymentMethods.DISPUTE_LOST_CODE;
      message = "dispute lost: " + SandboxPaymentMethods.DISPUTE_REASON;
    }
    return new GatewayChargeState(
        status,
        c.idempotencyKey(),
        c.transactionId(),
        c.amount(),
        refundedOf(c.transactionId()),
        c.subscriptionId(),
        c.cycle(),
        c.at(),
        c.settledAt(now),
        status == Status.RETURNED ? c.takenBackAt() : null,
        code,
        message,
        refunds.stream()
            .filter(r -> r.transactionId().equals(c.transactionId()))
            .map(SandboxBook::listed)
            .toList());
  }

  /** A refund as a list read shows it: billing's key on billing's own, none on the dashboard's. */
  static ChargeRefund listed(SandboxRefund r) {
    return new ChargeRefund(
        r.refundId(), r.amount(), SandboxIds.isDashboard(r) ? null : r.idempotencyKey(), r.at());
  }

  static boolean within(Instant t, Instant from, Instant to) {
    return !t.isBefore(from) && t.isBefore(to);
  }
}
