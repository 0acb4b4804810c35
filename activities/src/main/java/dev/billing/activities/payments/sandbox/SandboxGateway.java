package dev.billing.activities.payments.sandbox;

import dev.billing.activities.payments.ChargeQuery;
import dev.billing.activities.payments.GatewayCharge;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayEvent;
import dev.billing.activities.payments.GatewayRefund;
import dev.billing.activities.payments.GatewayUnavailableException;
import dev.billing.activities.payments.InvalidGatewayRequestException;
import dev.billing.activities.payments.PaymentDeclinedException;
import dev.billing.activities.payments.PaymentGateway;
import dev.billing.activities.payments.RefundRequest;
import dev.billing.activities.payments.sandbox.SandboxPaymentMethod.Behaviour;
import dev.billing.domain.ChargeMinimums;
import dev.billing.domain.Money;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
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
 *       dev.billing.activities.payments.IdempotencyConflictException} ({@link SandboxKeys}).
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
 * clock ({@link SandboxEvents}), and the dev stack polls it and posts them as signed webhooks
 * ({@link SandboxWebhooks}). Thread-safe; everything is lost on restart, as nothing outlives a dev
 * stack.
 *
 * <p>This class holds the lock and the order of each request's steps; every charge and refund made
 * and the reads of them are in {@link SandboxBook}, the refunds Stripe refuses in {@link
 * RefundRules}, and the scripted 503s, 500s and timeouts in {@link ScriptedFailures}.
 */
public final class SandboxGateway implements PaymentGateway {
  /**
   * How much earlier than {@link ChargeQuery#sentFrom()} a look-up lists: clocks differ a little.
   */
  public static final Duration LOOKUP_CLOCK_SLACK = Duration.ofMinutes(5);

  private final InstantSource clock;
  private final SandboxSettings settings;
  private final SlidingWindowRateLimiter limiter;
  // One lock (this) for all: checking a key and acting on it must be atomic.
  private final SandboxKeys keys;
  private final SandboxBook book = new SandboxBook();
  private final ScriptedFailures failures = new ScriptedFailures();

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
    this.keys = new SandboxKeys(settings.idempotencyRetention());
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
    SandboxKeys.ChargeAnswer earlier = keys.charge(key, parameters, now);
    if (earlier != null) {
      return answer(earlier, true);
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
    failures.beforeExecuting(method, key);
    String serverError = failures.serverError(behaviour, key);
    if (serverError != null) {
      keys.remember(key, parameters, new SandboxKeys.ChargeAnswer(null, serverError), now);
      throw new GatewayUnavailableException(serverError, null);
    }
    SandboxCharge charge =
        ChargeOutcomes.process(
            request,
            method,
            SandboxIds.transactionId(key, book.nextChargeSequence(key)),
            now,
            book.charges());
    keys.remember(key, parameters, new SandboxKeys.ChargeAnswer(charge, null), now);
    book.add(charge);
    ScriptedFailures.afterCharging(behaviour, key);
    return answer(charge, false);
  }

  @Override
  public synchronized GatewayRefund refund(RefundRequest request) {
    String key = request.idempotencyKey();
    admit("the refund with key '" + key + "'");
    Instant now = now();
    RequestParameters.Refund parameters = RequestParameters.Refund.of(request);
    SandboxRefund earlier = keys.refund(key, parameters, now);
    if (earlier != null) {
      return new GatewayRefund(earlier.refundId(), earlier.amount(), earlier.at());
    }
    SandboxCharge charge = existing(request.transactionId());
    RefundRules.check(charge, request.amount(), book.refundedOf(charge.transactionId()), now);
    SandboxRefund refund =
        new SandboxRefund(
            key,
            SandboxIds.refundId(key, book.nextRefundSequence(key)),
            charge.transactionId(),
            request.amount(),
            request.reason(),
            now);
    keys.remember(key, parameters, refund, now);
    book.add(refund);
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
    SandboxCharge charge = existing(transactionId);
    Money refunded = book.refundedOf(transactionId);
    Money asked = amount != null ? amount : charge.amount().minus(refunded);
    RefundRules.check(charge, asked, refunded, now);
    String key =
        SandboxIds.dashboardRefundKey(transactionId, book.dashboardRefunds(transactionId) + 1);
    SandboxRefund refund =
        new SandboxRefund(key, SandboxIds.refundId(key, 1), transactionId, asked, null, now);
    book.add(refund);
    return new GatewayRefund(refund.refundId(), refund.amount(), refund.at());
  }

  /**
   * A list read, as exact as Stripe's list endpoints: the charges with the key created at or after
   * {@code sentFrom} (less {@link #LOOKUP_CLOCK_SLACK}), never the idempotency record. Of several
   * (the key was reused after it was forgotten) the one that moved money wins, then the newest.
   */
  @Override
  public synchronized GatewayChargeState lookUp(ChargeQuery query) {
    admit("the look-up of key '" + query.idempotencyKey() + "'");
    return book.lookUp(query, query.sentFrom().minus(LOOKUP_CLOCK_SLACK), now());
  }

  /**
   * Stripe's search ({@code metadata['idempotencyKey']:'<key>'}), oldest first: eventually
   * consistent, so a charge shows only {@link SandboxSettings#searchLag()} after it was made. Not
   * part of the port: it is here so tests can show why look-ups are list reads.
   */
  public synchronized List<GatewayChargeState> searchByKey(String key) {
    admit("the search for key '" + key + "'");
    return book.search(key, settings.searchLag(), now());
  }

  @Override
  public synchronized List<GatewayChargeState> listCharges(Instant from, Instant to) {
    admit("the list of charges");
    return book.list(from, to, now());
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
    return SandboxEvents.between(book, from, to, now());
  }

  /** Every charge processed, oldest first (the sandbox's own view: no rate limit). */
  public synchronized List<SandboxCharge> charges() {
    return List.copyOf(book.charges());
  }

  /** Every refund made, oldest first (the sandbox's own view: no rate limit). */
  public synchronized List<SandboxRefund> refunds() {
    return List.copyOf(book.refunds());
  }

  /** The id of the first charge made with a key ({@link SandboxIds#transactionId(String, int)}). */
  public static String transactionId(String idempotencyKey) {
    return SandboxIds.transactionId(idempotencyKey, 1);
  }

  private SandboxCharge existing(String transactionId) {
    SandboxCharge charge = book.charge(transactionId);
    if (charge == null) {
      throw new InvalidGatewayRequestException(
          InvalidGatewayRequestException.RESOURCE_MISSING,
          "No such charge: '" + transactionId + "'");
    }
    return charge;
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

  // Millisecond precision: what the store keeps, so a processedAt read back compares equal.
  private Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MILLIS);
  }

  private static GatewayCharge answer(SandboxKeys.ChargeAnswer stored, boolean replayed) {
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
