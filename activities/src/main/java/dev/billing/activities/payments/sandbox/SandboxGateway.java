package dev.billing.activities.payments.sandbox;

import dev.billing.activities.payments.ChargeQuery;
import dev.billing.activities.payments.GatewayCharge;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayChargeState.Status;
import dev.billing.activities.payments.GatewayEvent;
import dev.billing.activities.payments.GatewayRefund;
import dev.billing.activities.payments.GatewayUnavailableException;
import dev.billing.activities.payments.IdempotencyConflictException;
import dev.billing.activities.payments.InvalidGatewayRequestException;
import dev.billing.activities.payments.PaymentDeclinedException;
import dev.billing.activities.payments.PaymentGateway;
import dev.billing.activities.payments.RefundRequest;
import dev.billing.activities.payments.sandbox.SandboxPaymentMethod.Behaviour;
import dev.billing.domain.ChargeMinimums;
import dev.billing.domain.ChargeRefund;
import dev.billing.domain.Money;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * An in-memory gateway as strict as Stripe's test mode, plus the scripted failures of {@link
 * SandboxPaymentMethods} (see the table there). Deterministic, so tests can assert ids and
 * instants: transaction, refund and event ids derive from idempotency keys (and, for a key reused
 * after it was forgotten, the sequence of its charge), and every time comes from the sandbox clock,
 * which the dev stack moves with Temporal's test server.
 *
 * <p>Stripe's rules, with {@link SandboxSettings} (docs/payments.md, "Sandbox rules"):
 *
 * <ul>
 *   <li>An idempotency key replays the answer stored the first time, decline and pending included,
 *       for {@link SandboxSettings#idempotencyRetention()} (24 h) from its first request; then it
 *       is forgotten and a request with it is new (a new charge, a new id).
 *   <li>A remembered key reused with any other parameter (amount, currency, customer, payment
 *       method, description, metadata; for refunds charge, amount, reason) is an {@link
 *       IdempotencyConflictException}.
 *   <li>A request refused before it executes stores nothing: failed validation (below {@link
 *       ChargeMinimums}), rate limiting (429) and the simulated 503s of {@code
 *       pm_sandbox_transientErrors_N}. A request that fails while executing (the 500 of {@code
 *       pm_sandbox_serverError}) is stored like any answer, and its key replays the 500.
 *   <li>{@link #lookUp} and {@link #listCharges} are list reads: exact at once. {@link
 *       #searchByKey} is Stripe's search: a charge shows only {@link SandboxSettings#searchLag()}
 *       after it was made.
 *   <li>More than {@link SandboxSettings#requestsPerSecond()} requests in one second (real time)
 *       are refused like Stripe's 429, as {@link GatewayUnavailableException}.
 * </ul>
 *
 * <p>Events are not pushed: {@link #listEvents} derives them from the charges, refunds and the
 * clock, and the dev stack polls it and posts them as signed webhooks ({@link SandboxWebhooks}).
 * Thread-safe; everything is lost on restart, as nothing outlives a dev stack.
 */
public final class SandboxGateway implements PaymentGateway {
  /**
   * How much earlier than {@link ChargeQuery#sentFrom()} a look-up lists: clocks differ a little.
   */
  public static final Duration LOOKUP_CLOCK_SLACK = Duration.ofMinutes(5);

  /** The one that moved money first (not FAILED), then the newest. */
  private static final Comparator<GatewayChargeState> MOVED_MONEY_FIRST =
      Comparator.comparing((GatewayChargeState s) -> s.status() == Status.FAILED)
          .thenComparing(GatewayChargeState::createdAt, Comparator.reverseOrder());

  private final InstantSource clock;
  private final SandboxSettings settings;
  private final SlidingWindowRateLimiter limiter;
  // One lock (this) for all: checking a key and acting on it must be atomic.
  private final IdempotencyRecords<RequestParameters.Charge, ChargeAnswer> chargeKeys;
  private final IdempotencyRecords<RequestParameters.Refund, SandboxRefund> refundKeys;
  // Every charge and refund ever made, by key: what list reads see, never pruned.
  private final Map<String, List<SandboxCharge>> chargesByKey = new HashMap<>();
  private final Map<String, List<SandboxRefund>> refundsByKey = new HashMap<>();
  private final Map<String, SandboxCharge> byTransaction = new HashMap<>();
  private final List<SandboxCharge> charges = new ArrayList<>();
  private final Map<String, Integer> errorsServed = new HashMap<>();
  private final Set<String> serverErrorsMade = new HashSet<>();
  private final List<SandboxRefund> refunds = new ArrayList<>();

  /**
   * What a key's first execution answered: a charge (whatever its outcome), or a 500 raised while
   * it executed (Stripe stores those too). Exactly one of the two is set.
   */
  private record ChargeAnswer(SandboxCharge charge, String serverError) {}

  /** Stripe's test mode: {@link SandboxSettings#defaults()}. */
  public SandboxGateway(InstantSource clock) {
    this(clock, SandboxSettings.defaults());
  }

  public SandboxGateway(InstantSource clock, SandboxSettings settings) {
    this(clock, settings, System::nanoTime);
  }

  /**
   * @param nanoTime the monotonic clock the rate is measured on
   */
  SandboxGateway(InstantSource clock, SandboxSettings settings, LongSupplier nanoTime) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.limiter = new SlidingWindowRateLimiter(settings.requestsPerSecond(), nanoTime);
    this.chargeKeys = new IdempotencyRecords<>(settings.idempotencyRetention());
    this.refundKeys = new IdempotencyRecords<>(settings.idempotencyRetention());
  }

  public SandboxSettings settings() {
    return settings;
  }

  @Override
  public synchronized GatewayCharge charge(GatewayChargeRequest request) {
    String key = request.idempotencyKey();
    admit("the charge with key '" + key + "'");
    Instant now = now();
    RequestParameters.Charge parameters = RequestParameters.Charge.of(request);
    var earlier = chargeKeys.find(key, now);
    if (earlier != null) {
      List<String> differences = earlier.parameters().differences(parameters);
      if (!differences.isEmpty()) {
        throw IdempotencyRecords.conflict(key, differences);
      }
      return answer(earlier.answer(), true);
    }
    // Like Stripe, a request that fails validation stores no idempotent result.
    if (!ChargeMinimums.chargeable(request.amount())) {
      throw new InvalidGatewayRequestException(
          InvalidGatewayRequestException.AMOUNT_TOO_SMALL,
          "Amount must be at least "
              + ChargeMinimums.minimum(request.amount().currency())
              + ", got "
              + request.amount());
    }
    SandboxPaymentMethod method =
        SandboxPaymentMethods.find(request.paymentMethodToken()).orElse(null);
    Behaviour behaviour = method == null ? null : method.behaviour();
    if (behaviour == Behaviour.TRANSIENT_ERRORS) {
      int served = errorsServed.getOrDefault(key, 0);
      if (served < method.count()) {
        errorsServed.put(key, served + 1);
        throw new GatewayUnavailableException(
            "Sandbox gateway error "
                + (served + 1)
                + " of "
                + method.count()
                + " for '"
                + key
                + "' (simulated 503 Service Unavailable)",
            null);
      }
    }
    if (behaviour == Behaviour.SERVER_ERROR && serverErrorsMade.add(key)) {
      String error =
          "Sandbox gateway error while executing the charge with key '"
              + key
              + "' (simulated 500 Internal Server Error; nothing was charged)";
      chargeKeys.remember(key, parameters, new ChargeAnswer(null, error), now);
      throw new GatewayUnavailableException(error, null);
    }
    List<SandboxCharge> withKey = chargesByKey.computeIfAbsent(key, k -> new ArrayList<>());
    SandboxCharge charge =
        ChargeOutcomes.process(
            request, method, SandboxIds.transactionId(key, withKey.size() + 1), now, charges);
    chargeKeys.remember(key, parameters, new ChargeAnswer(charge, null), now);
    withKey.add(charge);
    byTransaction.put(charge.transactionId(), charge);
    charges.add(charge);
    if (behaviour == Behaviour.TIMEOUT_AFTER_CHARGE) {
      throw new GatewayUnavailableException(
          "Read timed out after the sandbox charged '"
              + key
              + "' (simulated timeout: the money moved)",
          new SocketTimeoutException("Read timed out"));
    }
    return answer(charge, false);
  }

  @Override
  public synchronized GatewayRefund refund(RefundRequest request) {
    String key = request.idempotencyKey();
    admit("the refund with key '" + key + "'");
    Instant now = now();
    RequestParameters.Refund parameters = RequestParameters.Refund.of(request);
    var earlier = refundKeys.find(key, now);
    if (earlier != null) {
      List<String> differences = earlier.parameters().differences(parameters);
      if (!differences.isEmpty()) {
        throw IdempotencyRecords.conflict(key, differences);
      }
      SandboxRefund refund = earlier.answer();
      return new GatewayRefund(refund.refundId(), refund.amount(), refund.at());
    }
    SandboxCharge charge = byTransaction.get(request.transactionId());
    if (charge == null) {
      throw new InvalidGatewayRequestException(
          InvalidGatewayRequestException.RESOURCE_MISSING,
          "No such charge: '" + request.transactionId() + "'");
    }
    refundable(charge, request.amount(), now);
    List<SandboxRefund> withKey = refundsByKey.computeIfAbsent(key, k -> new ArrayList<>());
    SandboxRefund refund =
        new SandboxRefund(
            key,
            SandboxIds.refundId(key, withKey.size() + 1),
            charge.transactionId(),
            request.amount(),
            request.reason(),
            now);
    refundKeys.remember(key, parameters, refund, now);
    withKey.add(refund);
    refunds.add(refund);
    return new GatewayRefund(refund.refundId(), refund.amount(), refund.at());
  }

  /**
   * A refund made in the gateway's dashboard, outside billing's calls (the dev stack's {@code POST
   * /v1/dev/charges/{transactionId}/refund}): no idempotency key of billing's and no rate limit,
   * and told to billing only by its charge.refunded event, as Stripe tells a dashboard refund.
   *
   * @param amount null for everything left to refund
   * @throws InvalidGatewayRequestException as {@link #refund} refuses (unknown charge, nothing
   *     left, more than is left, a disputed charge)
   */
  public synchronized GatewayRefund refundAtDashboard(String transactionId, Money amount) {
    Instant now = now();
    SandboxCharge charge = byTransaction.get(transactionId);
    if (charge == null) {
      throw new InvalidGatewayRequestException(
          InvalidGatewayRequestException.RESOURCE_MISSING,
          "No such charge: '" + transactionId + "'");
    }
    Money asked = amount != null ? amount : charge.amount().minus(refundedOf(transactionId));
    refundable(charge, asked, now);
    String key = SandboxIds.dashboardRefundKey(transactionId, dashboardRefunds(transactionId) + 1);
    SandboxRefund refund =
        new SandboxRefund(key, SandboxIds.refundId(key, 1), transactionId, asked, null, now);
    refundsByKey.computeIfAbsent(key, k -> new ArrayList<>()).add(refund);
    refunds.add(refund);
    return new GatewayRefund(refund.refundId(), refund.amount(), refund.at());
  }

  private long dashboardRefunds(String transactionId) {
    return refunds.stream()
        .filter(r -> r.transactionId().equals(transactionId) && SandboxIds.isDashboard(r))
        .count();
  }

  /** Refuses a refund Stripe would refuse; nothing is stored for the key then. */
  private void refundable(SandboxCharge charge, Money amount, Instant now) {
    Status status = charge.statusAt(now);
    if (status != Status.SUCCEEDED) {
      throw new InvalidGatewayRequestException(
          InvalidGatewayRequestException.CHARGE_NOT_REFUNDABLE,
          "Charge " + charge.transactionId() + " is " + status + " and holds nothing to refund");
    }
    if (charge.disputedBy(now)) {
      throw new InvalidGatewayRequestException(
          InvalidGatewayRequestException.CHARGE_NOT_REFUNDABLE,
          "Charge " + charge.transactionId() + " has been disputed and cannot be refunded");
    }
    if (!amount.currency().equals(charge.amount().currency()) || !amount.greaterThanZero()) {
      throw new InvalidGatewayRequestException(
          InvalidGatewayRequestException.AMOUNT_TOO_SMALL,
          "Refund amount must be a positive amount in "
              + charge.amount().currency()
              + ", got "
              + amount);
    }
    Money left = charge.amount().minus(refundedOf(charge.transactionId()));
    if (!left.greaterThanZero()) {
      throw new InvalidGatewayRequestException(
          InvalidGatewayRequestException.CHARGE_ALREADY_REFUNDED,
          "Charge " + charge.transactionId() + " has already been refunded.");
    }
    if (amount.minor() > left.minor()) {
      throw new InvalidGatewayRequestException(
          InvalidGatewayRequestException.AMOUNT_TOO_LARGE,
          "Refund amount ("
              + amount
              + ") is greater than unrefunded amount on charge ("
              + left
              + ")");
    }
  }

  /**
   * A list read, as exact as Stripe's list endpoints: the charges with the key created at or after
   * {@code sentFrom} (less {@link #LOOKUP_CLOCK_SLACK}), never the idempotency record. Of several
   * (the key was reused after it was forgotten) the one that moved money wins, then the newest.
   */
  @Override
  public synchronized GatewayChargeState lookUp(ChargeQuery query) {
    String key = query.idempotencyKey();
    admit("the look-up of key '" + key + "'");
    Instant now = now();
    Instant from = query.sentFrom().minus(LOOKUP_CLOCK_SLACK);
    // Narrowed to the query's customer, as Stripe's list by customer is.
    String customer = RequestParameters.customerOf(query.paymentMethodToken());
    return chargesByKey.getOrDefault(key, List.of()).stream()
        .filter(c -> !c.at().isBefore(from))
        .filter(c -> customer == null || customer.equals(RequestParameters.customerOf(c.token())))
        .map(c -> state(c, now))
        .min(MOVED_MONEY_FIRST)
        .orElseGet(() -> GatewayChargeState.notFound(key));
  }

  /**
   * Stripe's search ({@code metadata['idempotencyKey']:'<key>'}), oldest first: eventually
   * consistent, so a charge shows only {@link SandboxSettings#searchLag()} after it was made. Not
   * part of the port: it is here so tests can show why look-ups are list reads.
   */
  public synchronized List<GatewayChargeState> searchByKey(String key) {
    admit("the search for key '" + key + "'");
    Instant now = now();
    return chargesByKey.getOrDefault(key, List.of()).stream()
        .filter(c -> !c.at().plus(settings.searchLag()).isAfter(now))
        .map(c -> state(c, now))
        .toList();
  }

  @Override
  public synchronized List<GatewayChargeState> listCharges(Instant from, Instant to) {
    admit("the list of charges");
    Instant now = now();
    return charges.stream()
        .filter(c -> within(c.at(), from, to))
        .sorted(Comparator.comparing(SandboxCharge::at))
        .map(c -> state(c, now))
        .toList();
  }

  @Override
  public synchronized List<GatewayEvent> listEvents(Instant from, Instant to) {
    admit("the list of events");
    return events(from, to);
  }

  /**
   * The events between {@code from} and {@code to} that have occurred by now (the sandbox's own
   * view: no rate limit), as a webhook sender sees them: delivering them spends none of the
   * requests the API allows.
   */
  public synchronized List<GatewayEvent> events(Instant from, Instant to) {
    Instant now = now();
    List<GatewayEvent> events = new ArrayList<>();
    for (SandboxCharge c : charges) {
      if (c.subscriptionId() == null || c.cycle() == null) {
        continue; // not one of ours: nothing to tell a subscription
      }
      switch (c.outcome()) {
        case SUCCEEDED -> {
          events.add(event(c, GatewayEvent.Type.SUCCEEDED, c.at(), null, null));
          if (c.disputedAt() != null) {
            events.add(
                event(
                    c,
                    GatewayEvent.Type.DISPUTED,
                    c.disputedAt(),
                    SandboxPaymentMethods.DISPUTE_REASON,
                    "disputed: " + SandboxPaymentMethods.DISPUTE_REASON));
            events.add(
                event(
                    c,
                    GatewayEvent.Type.RETURNED,
                    c.disputeLostAt(),
                    SandboxPaymentMethods.DISPUTE_LOST_CODE,
                    "dispute lost: " + SandboxPaymentMethods.DISPUTE_REASON));
          }
        }
        case DECLINED ->
            events.add(
                event(c, GatewayEvent.Type.FAILED, c.at(), c.declineCode(), c.declineMessage()));
        case PENDING -> {
          events.add(event(c, GatewayEvent.Type.SUCCEEDED, c.settlesAt(), null, null));
          if (c.returnsAt() != null) {
            events.add(
                event(
                    c,
                    GatewayEvent.Type.RETURNED,
                    c.returnsAt(),
                    SandboxPaymentMethods.RETURN_CODE,
                    SandboxPaymentMethods.RETURN_MESSAGE));
          }
        }
      }
    }
    Map<String, Money> refundedSoFar = new HashMap<>();
    Map<String, List<ChargeRefund>> listedSoFar = new HashMap<>();
    for (SandboxRefund r : refunds) {
      SandboxCharge c = byTransaction.get(r.transactionId());
      Money total = refundedSoFar.merge(r.transactionId(), r.amount(), Money::plus);
      List<ChargeRefund> listed =
          listedSoFar.computeIfAbsent(r.transactionId(), t -> new ArrayList<>());
      listed.add(listed(r));
      if (c.subscriptionId() != null && c.cycle() != null) {
        int sequence = refundsByKey.get(r.idempotencyKey()).indexOf(r) + 1;
        events.add(
            new GatewayEvent(
                SandboxIds.eventId(r.idempotencyKey(), GatewayEvent.Type.REFUNDED, sequence),
                GatewayEvent.Type.REFUNDED,
                r.at(),
                c.idempotencyKey(),
                c.transactionId(),
                c.subscriptionId(),
                c.cycle(),
                total,
                null,
                null,
                listed));
      }
    }
    return events.stream()
        .filter(e -> within(e.occurredAt(), from, to) && !e.occurredAt().isAfter(now))
        .sorted(Comparator.comparing(GatewayEvent::occurredAt).thenComparing(GatewayEvent::id))
        .toList();
  }

  /** Every charge processed, oldest first (the sandbox's own view: no rate limit). */
  public synchronized List<SandboxCharge> charges() {
    return List.copyOf(charges);
  }

  /** Every refund made, oldest first (the sandbox's own view: no rate limit). */
  public synchronized List<SandboxRefund> refunds() {
    return List.copyOf(refunds);
  }

  /** The id of the first charge made with a key ({@link SandboxIds#transactionId(String, int)}). */
  public static String transactionId(String idempotencyKey) {
    return SandboxIds.transactionId(idempotencyKey, 1);
  }

  /**
   * Counts one request, or refuses it as Stripe's 429 does: the caller retries with the same key.
   */
  private void admit(String what) {
    if (!limiter.tryAcquire()) {
      throw new GatewayUnavailableException(
          "Rate limited: more than "
              + limiter.limit()
              + " requests per second reached the sandbox gateway (simulated 429 Too Many Requests);"
              + " retry "
              + what
              + " later",
          null);
    }
  }

  private GatewayChargeState state(SandboxCharge c, Instant now) {
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
            .map(SandboxGateway::listed)
            .toList());
  }

  /** A refund as a list read shows it: billing's key on billing's own, none on the dashboard's. */
  private static ChargeRefund listed(SandboxRefund r) {
    return new ChargeRefund(
        r.refundId(), r.amount(), SandboxIds.isDashboard(r) ? null : r.idempotencyKey(), r.at());
  }

  private GatewayEvent event(
      SandboxCharge c, GatewayEvent.Type type, Instant at, String code, String message) {
    int sequence = chargesByKey.get(c.idempotencyKey()).indexOf(c) + 1;
    return new GatewayEvent(
        SandboxIds.eventId(c.idempotencyKey(), type, sequence),
        type,
        at,
        c.idempotencyKey(),
        c.transactionId(),
        c.subscriptionId(),
        c.cycle(),
        c.amount(),
        code,
        message);
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

  private static GatewayCharge answer(ChargeAnswer stored, boolean replayed) {
    if (stored.serverError() != null) {
      throw new GatewayUnavailableException(
          stored.serverError() + " (replayed for this key)", null);
    }
    return answer(stored.charge(), replayed);
  }

  private static GatewayCharge answer(SandboxCharge charge, boolean replayed) {
    return switch (charge.outcome()) {
      case DECLINED ->
          throw new PaymentDeclinedException(charge.declineCode(), charge.declineMessage());
      case SUCCEEDED -> new GatewayCharge(charge.transactionId(), charge.at(), replayed, false);
      case PENDING -> new GatewayCharge(charge.transactionId(), charge.at(), replayed, true);
    };
  }
}
