package dev.billing.activities.payments.sandbox;

import dev.billing.activities.payments.ChargeQuery;
import dev.billing.activities.payments.GatewayCharge;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayChargeState.Status;
import dev.billing.activities.payments.GatewayEvent;
import dev.billing.activities.payments.GatewayRefund;
import dev.billing.activities.payments.GatewayUnavailableException;
import dev.billing.activities.payments.InvalidGatewayRequestException;
import dev.billing.activities.payments.PaymentDeclinedException;
import dev.billing.activities.payments.PaymentGateway;
import dev.billing.activities.payments.RefundRequest;
import dev.billing.activities.payments.sandbox.SandboxCharge.Outcome;
import dev.billing.activities.payments.sandbox.SandboxPaymentMethod.Behaviour;
import dev.billing.domain.Money;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An in-memory gateway that behaves like Stripe's test mode, plus the scripted failures of
 * {@link SandboxPaymentMethods} (see the table there). Deterministic, so tests can assert ids and
 * instants: transaction, refund and event ids derive from idempotency keys, and every time comes
 * from the sandbox clock, which the dev stack moves with Temporal's test server.
 *
 * <p>An idempotency key replays the answer stored the first time, decline and pending included,
 * as Stripe replays its stored response. Requests that fail validation, and the simulated 5xx
 * errors, store nothing. Events are not pushed: {@link #listEvents} derives them from the charges,
 * refunds and the clock, and the dev stack polls it and posts them as signed webhooks
 * ({@link SandboxWebhooks}). Thread-safe; everything is lost on restart, as nothing outlives a dev
 * stack.
 */
public final class SandboxGateway implements PaymentGateway {
  private static final String TRANSACTION_PREFIX = "ch_sb_";
  private static final String REFUND_PREFIX = "re_sb_";
  private static final String EVENT_PREFIX = "evt_sb_";

  private final InstantSource clock;
  // One lock (this) for all: checking a key and acting on it must be atomic.
  private final Map<String, SandboxCharge> byKey = new HashMap<>();
  private final Map<String, SandboxCharge> byTransaction = new HashMap<>();
  private final List<SandboxCharge> charges = new ArrayList<>();
  private final Map<String, Integer> errorsServed = new HashMap<>();
  private final Map<String, SandboxRefund> refundsByKey = new HashMap<>();
  private final List<SandboxRefund> refunds = new ArrayList<>();

  public SandboxGateway(InstantSource clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public synchronized GatewayCharge charge(GatewayChargeRequest request) {
    String key = request.idempotencyKey();
    SandboxCharge earlier = byKey.get(key);
    if (earlier != null) {
      requireSameParameters(earlier, request);
      return answer(earlier, true);
    }
    // Like Stripe, a request that fails validation stores no idempotent result.
    if (!request.amount().greaterThanZero()) {
      throw new InvalidGatewayRequestException(InvalidGatewayRequestException.AMOUNT_TOO_SMALL,
          "Amount must be greater than zero, got " + request.amount());
    }
    SandboxPaymentMethod method = SandboxPaymentMethods.find(request.paymentMethodToken())
        .orElse(null);
    Behaviour behaviour = method == null ? null : method.behaviour();
    if (behaviour == Behaviour.TRANSIENT_ERRORS) {
      int served = errorsServed.getOrDefault(key, 0);
      if (served < method.count()) {
        errorsServed.put(key, served + 1);
        throw new GatewayUnavailableException("Sandbox gateway error " + (served + 1) + " of "
            + method.count() + " for '" + key + "' (simulated 503 Service Unavailable)", null);
      }
    }
    SandboxCharge charge = process(request, method);
    byKey.put(key, charge);
    byTransaction.put(charge.transactionId(), charge);
    charges.add(charge);
    if (behaviour == Behaviour.TIMEOUT_AFTER_CHARGE) {
      throw new GatewayUnavailableException("Read timed out after the sandbox charged '" + key
          + "' (simulated timeout: the money moved)", new SocketTimeoutException("Read timed out"));
    }
    return answer(charge, false);
  }

  @Override
  public synchronized GatewayRefund refund(RefundRequest request) {
    SandboxRefund earlier = refundsByKey.get(request.idempotencyKey());
    if (earlier != null) {
      if (!earlier.transactionId().equals(request.transactionId())
          || !earlier.amount().equals(request.amount())) {
        throw new InvalidGatewayRequestException(
            InvalidGatewayRequestException.IDEMPOTENCY_KEY_REUSED,
            "Keys for idempotent requests can only be used with the same parameters they were"
                + " first used with; '" + request.idempotencyKey() + "' was first used to refund "
                + earlier.amount() + " of " + earlier.transactionId());
      }
      return new GatewayRefund(earlier.refundId(), earlier.amount(), earlier.at());
    }
    SandboxCharge charge = byTransaction.get(request.transactionId());
    if (charge == null) {
      throw new InvalidGatewayRequestException(InvalidGatewayRequestException.RESOURCE_MISSING,
          "No such charge: '" + request.transactionId() + "'");
    }
    Instant now = now();
    Status status = charge.statusAt(now);
    if (status != Status.SUCCEEDED) {
      throw new InvalidGatewayRequestException(
          InvalidGatewayRequestException.CHARGE_NOT_REFUNDABLE,
          "Charge " + charge.transactionId() + " is " + status + " and holds nothing to refund");
    }
    if (!request.amount().currency().equals(charge.amount().currency())
        || !request.amount().greaterThanZero()) {
      throw new InvalidGatewayRequestException(InvalidGatewayRequestException.AMOUNT_TOO_SMALL,
          "Refund amount must be a positive amount in " + charge.amount().currency() + ", got "
              + request.amount());
    }
    Money left = charge.amount().minus(refundedOf(charge.transactionId()));
    if (!left.greaterThanZero()) {
      throw new InvalidGatewayRequestException(
          InvalidGatewayRequestException.CHARGE_ALREADY_REFUNDED,
          "Charge " + charge.transactionId() + " has already been refunded.");
    }
    if (request.amount().minor() > left.minor()) {
      throw new InvalidGatewayRequestException(InvalidGatewayRequestException.AMOUNT_TOO_LARGE,
          "Refund amount (" + request.amount() + ") is greater than unrefunded amount on charge ("
              + left + ")");
    }
    SandboxRefund refund = new SandboxRefund(request.idempotencyKey(),
        id(REFUND_PREFIX, request.idempotencyKey()), charge.transactionId(), request.amount(),
        request.reason(), now);
    refundsByKey.put(refund.idempotencyKey(), refund);
    refunds.add(refund);
    return new GatewayRefund(refund.refundId(), refund.amount(), refund.at());
  }

  @Override
  public synchronized GatewayChargeState lookUp(ChargeQuery query) {
    SandboxCharge charge = byKey.get(query.idempotencyKey());
    return charge == null ? GatewayChargeState.notFound(query.idempotencyKey()) : state(charge, now());
  }

  @Override
  public synchronized List<GatewayChargeState> listCharges(Instant from, Instant to) {
    Instant now = now();
    return charges.stream()
        .filter(c -> within(c.at(), from, to))
        .sorted(Comparator.comparing(SandboxCharge::at))
        .map(c -> state(c, now))
        .toList();
  }

  @Override
  public synchronized List<GatewayEvent> listEvents(Instant from, Instant to) {
    Instant now = now();
    List<GatewayEvent> events = new ArrayList<>();
    for (SandboxCharge c : charges) {
      if (c.subscriptionId() == null || c.cycle() == null) {
        continue; // not one of ours: nothing to tell a subscription
      }
      switch (c.outcome()) {
        case SUCCEEDED -> events.add(event(c, GatewayEvent.Type.SUCCEEDED, c.at(), null, null));
        case DECLINED -> events.add(event(c, GatewayEvent.Type.FAILED, c.at(), c.declineCode(),
            c.declineMessage()));
        case PENDING -> {
          events.add(event(c, GatewayEvent.Type.SUCCEEDED, c.settlesAt(), null, null));
          if (c.returnsAt() != null) {
            events.add(event(c, GatewayEvent.Type.RETURNED, c.returnsAt(),
                SandboxPaymentMethods.RETURN_CODE, SandboxPaymentMethods.RETURN_MESSAGE));
          }
        }
      }
    }
    Map<String, Money> refundedSoFar = new HashMap<>();
    for (SandboxRefund r : refunds) {
      SandboxCharge c = byTransaction.get(r.transactionId());
      Money total = refundedSoFar.merge(r.transactionId(), r.amount(), Money::plus);
      if (c.subscriptionId() != null && c.cycle() != null) {
        events.add(new GatewayEvent(eventId(r.idempotencyKey(), GatewayEvent.Type.REFUNDED),
            GatewayEvent.Type.REFUNDED, r.at(), c.idempotencyKey(), c.transactionId(),
            c.subscriptionId(), c.cycle(), total, null, null));
      }
    }
    return events.stream()
        .filter(e -> within(e.occurredAt(), from, to) && !e.occurredAt().isAfter(now))
        .sorted(Comparator.comparing(GatewayEvent::occurredAt).thenComparing(GatewayEvent::id))
        .toList();
  }

  /** Every charge processed, oldest first. */
  public synchronized List<SandboxCharge> charges() {
    return List.copyOf(charges);
  }

  /** Every refund made, oldest first. */
  public synchronized List<SandboxRefund> refunds() {
    return List.copyOf(refunds);
  }

  /** "ch_sb_" and the first 24 hex digits of the key's SHA-256: the same key, the same id. */
  public static String transactionId(String idempotencyKey) {
    return id(TRANSACTION_PREFIX, idempotencyKey);
  }

  /** "evt_sb_" and 24 hex digits of SHA-256 over "key|type": one id per key and type. */
  public static String eventId(String idempotencyKey, GatewayEvent.Type type) {
    return id(EVENT_PREFIX, idempotencyKey + "|" + type.wireName());
  }

  private SandboxCharge process(GatewayChargeRequest request, SandboxPaymentMethod method) {
    String token = request.paymentMethodToken();
    String key = request.idempotencyKey();
    Instant at = now();
    Outcome outcome = Outcome.SUCCEEDED;
    String code = null;
    String message = null;
    Instant settlesAt = null;
    Instant returnsAt = null;
    if (method == null) {
      outcome = Outcome.DECLINED;
      code = "invalid_payment_method";
      message = "No such payment method: '" + token + "'";
    } else {
      switch (method.behaviour()) {
        case DECLINES -> {
          outcome = Outcome.DECLINED;
          code = method.declineCode();
          message = method.declineMessage();
        }
        case RECOVERS_AFTER -> {
          if (attempt(request) <= method.count()) {
            outcome = Outcome.DECLINED;
            code = method.declineCode();
            message = method.declineMessage();
          }
        }
        case BANK_DEBIT, BANK_DEBIT_RETURNED -> {
          outcome = Outcome.PENDING;
          settlesAt = at.plus(SandboxPaymentMethods.SETTLEMENT_DELAY);
          if (method.behaviour() == Behaviour.BANK_DEBIT_RETURNED) {
            returnsAt = settlesAt.plus(SandboxPaymentMethods.RETURN_DELAY);
          }
        }
        case SUCCEEDS, TRANSIENT_ERRORS, TIMEOUT_AFTER_CHARGE -> { }
      }
    }
    return new SandboxCharge(key, transactionId(key), request.amount(), token, outcome, code,
        message, at, request.subscriptionId(), request.cycle(), settlesAt, returnsAt);
  }

  /**
   * The collection attempt within its period: the key's last segment
   * ({@code charge:<subscription>:<cycle>:<attempt>}). A key of another shape counts the period's
   * earlier charges instead, the period being the subscription and cycle of the metadata.
   */
  private int attempt(GatewayChargeRequest request) {
    String key = request.idempotencyKey();
    String last = key.substring(key.lastIndexOf(':') + 1);
    if (!last.isEmpty() && last.length() <= 9 && last.chars().allMatch(Character::isDigit)) {
      return Integer.parseInt(last);
    }
    long earlier = charges.stream()
        .filter(c -> c.subscriptionId() != null
            && c.subscriptionId().equals(request.subscriptionId())
            && Objects.equals(c.cycle(), request.cycle()))
        .count();
    return (int) earlier + 1;
  }

  private GatewayChargeState state(SandboxCharge c, Instant now) {
    Status status = c.statusAt(now);
    String code = null;
    String message = null;
    if (status == Status.FAILED) {
      code = c.declineCode();
      message = c.declineMessage();
    } else if (status == Status.RETURNED) {
      code = SandboxPaymentMethods.RETURN_CODE;
      message = SandboxPaymentMethods.RETURN_MESSAGE;
    }
    return new GatewayChargeState(status, c.idempotencyKey(), c.transactionId(), c.amount(),
        refundedOf(c.transactionId()), c.subscriptionId(), c.cycle(), c.at(), c.settledAt(now),
        status == Status.RETURNED ? c.returnsAt() : null, code, message);
  }

  private GatewayEvent event(SandboxCharge c, GatewayEvent.Type type, Instant at, String code,
      String message) {
    return new GatewayEvent(eventId(c.idempotencyKey(), type), type, at, c.idempotencyKey(),
        c.transactionId(), c.subscriptionId(), c.cycle(), c.amount(), code, message);
  }

  private Money refundedOf(String transactionId) {
    SandboxCharge charge = byTransaction.get(transactionId);
    Money total = Money.zero(charge.amount().currency());
    for (SandboxRefund r : refunds) {
      if (r.transactionId().equals(transactionId)) {
        total = total.plus(r.amount());
      }
    }
    return total;
  }

  // Millisecond precision: what the store keeps, so a processedAt read back compares equal.
  private Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MILLIS);
  }

  private static boolean within(Instant t, Instant from, Instant to) {
    return !t.isBefore(from) && t.isBefore(to);
  }

  private static void requireSameParameters(SandboxCharge earlier, GatewayChargeRequest request) {
    if (!earlier.amount().equals(request.amount())
        || !earlier.token().equals(request.paymentMethodToken())) {
      // Names the amount, never the token: tokens stay out of messages that reach logs.
      throw new InvalidGatewayRequestException(InvalidGatewayRequestException.IDEMPOTENCY_KEY_REUSED,
          "Keys for idempotent requests can only be used with the same parameters they were first"
              + " used with; '" + request.idempotencyKey() + "' was first used for "
              + earlier.amount() + " to another payment method or amount");
    }
  }

  private static GatewayCharge answer(SandboxCharge charge, boolean replayed) {
    return switch (charge.outcome()) {
      case DECLINED -> throw new PaymentDeclinedException(charge.declineCode(),
          charge.declineMessage());
      case SUCCEEDED -> new GatewayCharge(charge.transactionId(), charge.at(), replayed, false);
      case PENDING -> new GatewayCharge(charge.transactionId(), charge.at(), replayed, true);
    };
  }

  private static String id(String prefix, String seed) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256")
          .digest(seed.getBytes(StandardCharsets.UTF_8));
      return prefix + HexFormat.of().formatHex(hash).substring(0, 24);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
