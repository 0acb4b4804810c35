package dev.billing.workflows;

import dev.billing.domain.Money;
import dev.billing.workflows.activities.ChargeInput;
import dev.billing.workflows.activities.ChargeLookup;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The charges a gateway holds, with Stripe's idempotency rules on the workflow clock: a key is
 * remembered 24 hours from its first request, then a reused key is a new request (a new charge);
 * within that time a key reused with another amount, payment method or description is refused. A
 * look-up lists the charges with the key created since a lower bound, and of the token's customer
 * only, as a list read does: never from the idempotency record. Charges are counted one by one, so
 * a second charge under one key (the key reused after it was forgotten) is a double charge, never
 * hidden behind the key. A 500 raised while a request executes is an answer too: kept for the key
 * and replayed for its 24 hours (no charge, so a list read never sees it); a failure before
 * execution (503, 429, an invalid request) keeps nothing.
 */
final class FakeGatewayLedger {
  static final Duration KEY_MEMORY = Duration.ofHours(24);

  /** A list read's clock slack: a charge created this much before the lower bound is still seen. */
  static final Duration LIST_SLACK = Duration.ofMinutes(5);

  /**
   * One charge the gateway made.
   *
   * @param answersLostTo the activity execution whose calls never get an answer (a network
   *     partition on the caller's side lasting through Temporal's retries); null when answers get
   *     through
   */
  record Charge(
      String key,
      Money amount,
      String token,
      String description,
      Instant createdAt,
      String transactionId,
      ChargeLookup state,
      String answersLostTo) {

    boolean sameRequest(ChargeInput input) {
      if (amount == null) {
        return true; // seeded by a test through gatewaySays: only its outcome is known
      }
      return amount.equals(input.amount())
          && token.equals(input.paymentMethod().token())
          && Objects.equals(description, input.description());
    }

    boolean movedMoney() {
      return state.status() == ChargeLookup.Status.SUCCEEDED
          || state.status() == ChargeLookup.Status.PENDING;
    }

    Charge withState(ChargeLookup newState) {
      return new Charge(
          key, amount, token, description, createdAt, transactionId, newState, answersLostTo);
    }
  }

  /** A 500 raised while a request with the key executed: nothing charged, the error kept. */
  record ServerError(
      String key, Money amount, String token, String description, Instant createdAt) {

    boolean sameRequest(ChargeInput input) {
      return amount.equals(input.amount())
          && token.equals(input.paymentMethod().token())
          && Objects.equals(description, input.description());
    }
  }

  private final List<Charge> charges = new ArrayList<>();
  private final List<ServerError> serverErrors = new ArrayList<>();

  /** Keeps a 500 for the request's key, as its idempotent answer. */
  synchronized void serverError(ChargeInput input, Instant now) {
    serverErrors.add(
        new ServerError(
            input.idempotencyKey(),
            input.amount(),
            input.paymentMethod().token(),
            input.description(),
            now));
  }

  /** The 500 a request with {@code key} is answered with at {@code now}; null when none is kept. */
  synchronized ServerError rememberedError(String key, Instant now) {
    for (int i = serverErrors.size() - 1; i >= 0; i--) {
      ServerError error = serverErrors.get(i);
      if (error.key().equals(key)) {
        return error.createdAt().plus(KEY_MEMORY).isAfter(now) ? error : null;
      }
    }
    return null;
  }

  /** Whether a request with {@code key} ever failed while executing. */
  synchronized boolean everFailedWhileExecuting(String key) {
    return serverErrors.stream().anyMatch(e -> e.key().equals(key));
  }

  /**
   * The charge a request with {@code key} is answered from at {@code now}; null when none is
   * remembered.
   */
  synchronized Charge remembered(String key, Instant now) {
    for (int i = charges.size() - 1; i >= 0; i--) {
      Charge charge = charges.get(i);
      if (charge.key().equals(key)) {
        return charge.createdAt().plus(KEY_MEMORY).isAfter(now) ? charge : null;
      }
    }
    return null;
  }

  /** A new charge; a key charged before gets a new transaction id, as a new request would. */
  synchronized Charge create(
      ChargeInput input,
      Instant now,
      String transactionId,
      ChargeLookup.Status status,
      String code,
      String message,
      String answersLostTo) {
    long earlier = charges.stream().filter(c -> c.key().equals(input.idempotencyKey())).count();
    String id = earlier == 0 ? transactionId : transactionId + "_again" + earlier;
    Charge charge =
        new Charge(
            input.idempotencyKey(),
            input.amount(),
            input.paymentMethod().token(),
            input.description(),
            now,
            id,
            new ChargeLookup(
                status, id, status == ChargeLookup.Status.FAILED ? null : now, code, message),
            answersLostTo);
    charges.add(charge);
    return charge;
  }

  /**
   * What the newest charge with {@code key} is from now on (a settlement, a return), or a new one.
   */
  synchronized void update(String key, ChargeLookup state) {
    for (int i = charges.size() - 1; i >= 0; i--) {
      if (charges.get(i).key().equals(key)) {
        charges.set(i, charges.get(i).withState(state));
        return;
      }
    }
    Instant at = state.processedAt() == null ? Instant.EPOCH : state.processedAt();
    charges.add(new Charge(key, null, null, null, at, state.transactionId(), state, null));
  }

  /**
   * An exact list read: the charges with the key created since {@code sentFrom}; money wins. A
   * {@code cus_…/pm_…} token narrows it to that customer's charges, as Stripe's list by customer
   * does (a charge seeded by {@code gatewaySays} has no customer); a bare or null token reads the
   * whole account.
   */
  synchronized ChargeLookup lookUp(String key, String token, Instant sentFrom) {
    String customer = customerOf(token);
    return charges.stream()
        .filter(c -> c.key().equals(key) && !c.createdAt().isBefore(sentFrom.minus(LIST_SLACK)))
        .filter(c -> customer == null || customer.equals(customerOf(c.token())))
        .max(Comparator.comparing(Charge::movedMoney).thenComparing(Charge::createdAt))
        .map(Charge::state)
        .orElse(new ChargeLookup(ChargeLookup.Status.NOT_FOUND, null, null, null, null));
  }

  private static String customerOf(String token) {
    if (token == null) {
      return null;
    }
    int slash = token.indexOf('/');
    return slash > 0 && token.startsWith("cus_") ? token.substring(0, slash) : null;
  }

  /** Every charge that holds the customer's money, oldest first. */
  synchronized List<Charge> successful() {
    return charges.stream()
        .filter(c -> c.state().status() == ChargeLookup.Status.SUCCEEDED)
        .toList();
  }

  /**
   * Keys with a successful charge and its transaction id. Fails when one key holds two: a test that
   * reads it proves there was no double charge.
   */
  synchronized Map<String, String> succeededByKey() {
    Map<String, String> byKey = new TreeMap<>();
    for (Charge charge : successful()) {
      String earlier = byKey.put(charge.key(), charge.transactionId());
      if (earlier != null) {
        throw new AssertionError(
            "double charge: "
                + charge.key()
                + " collected "
                + earlier
                + " and "
                + charge.transactionId());
      }
    }
    return byKey;
  }
}
