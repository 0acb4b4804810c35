package dev.billing.activities.payments.stripe;

import com.stripe.StripeClient;
import com.stripe.exception.EventDataObjectDeserializationException;
import com.stripe.exception.StripeException;
import com.stripe.model.Charge;
import com.stripe.model.Dispute;
import dev.billing.domain.BankDebitReturns;
import com.stripe.model.Event;
import com.stripe.model.PaymentIntent;
import com.stripe.model.Refund;
import com.stripe.model.StripeError;
import com.stripe.model.StripeObject;
import com.stripe.net.RequestOptions;
import com.stripe.param.EventListParams;
import com.stripe.param.PaymentIntentCreateParams;
import com.stripe.param.PaymentIntentListParams;
import com.stripe.param.PaymentIntentSearchParams;
import com.stripe.param.RefundCreateParams;
import dev.billing.activities.payments.ChargeQuery;
import dev.billing.activities.payments.DeclineCodes;
import dev.billing.activities.payments.DeclineKind;
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
import dev.billing.activities.payments.PaymentGatewayException;
import dev.billing.activities.payments.RefundRequest;
import dev.billing.domain.Money;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway on Stripe, through the official stripe-java client.
 *
 * <ul>
 *   <li><b>charge</b>: one PaymentIntent per idempotency key, created and confirmed in one call,
 *       off-session (the customer is not present), automatic payment methods without redirects,
 *       amount in Stripe's minor units ({@link StripeAmounts}), lowercase currency, metadata
 *       {subscriptionId, cycle, idempotencyKey}, and the key as the {@code Idempotency-Key}
 *       header. Status succeeded is a settled charge, processing a pending one (bank debits);
 *       {@code Idempotent-Replayed: true} on the response marks a replay. The transaction id is the
 *       PaymentIntent's id. Stripe keeps idempotency keys for at least 24 hours, far longer than
 *       Temporal's retries of one attempt (about a minute).
 *   <li><b>refund</b>: a Refund of the PaymentIntent with its own idempotency key.
 *   <li><b>lookUp</b>: the Search API, {@code metadata['idempotencyKey']:'<key>'}. Search is
 *       eventually consistent: a PaymentIntent usually becomes searchable within a minute of its
 *       creation, longer during incidents. So NOT_FOUND right after a timed-out charge is not proof
 *       that no money moved; the caller should look up no sooner than a few minutes after the
 *       unknown outcome (or retry the charge with the same key, which Stripe answers from its
 *       idempotency record for 24 hours). Search is not available for accounts in India.
 *   <li><b>listCharges / listEvents</b>: the list endpoints with {@code created[gte]/[lt]} (whole
 *       seconds; the window is widened to whole seconds, receivers deduplicate by id) and
 *       auto-pagination. Stripe keeps events for 30 days.
 * </ul>
 *
 * <p>Events: payment_intent.succeeded is SUCCEEDED, payment_intent.payment_failed FAILED,
 * charge.refunded REFUNDED (amount = amount_refunded), charge.dispute.created of a bank debit
 * RETURNED (BankDebitReturns; card chargebacks are left out, as the webhook leaves them). Stripe
 * reports a bank debit taken back after it succeeded (an ACH return such as R10 "unauthorized", a
 * SEPA refund request) as a dispute, and debits the disputed amount when it opens one, so a new
 * dispute of a bank debit is the moment the money is gone. Events about charges
 * without our metadata (made outside this system) are left out.
 *
 * <p>Errors: see {@link StripeErrors}. The API key and payment method tokens are never logged.
 */
public final class StripeGateway implements PaymentGateway {
  private static final Logger log = LoggerFactory.getLogger(StripeGateway.class);

  static final String REPLAYED_HEADER = "Idempotent-Replayed";
  static final List<String> EVENT_TYPES = List.of("payment_intent.succeeded",
      "payment_intent.payment_failed", "charge.refunded", "charge.dispute.created");
  private static final long PAGE_SIZE = 100;

  private final StripeClient client;

  public StripeGateway(StripeSettings settings) {
    this.client = StripeClient.builder()
        .setApiKey(settings.apiKey())
        .setApiBase(settings.apiBase())
        .setConnectTimeout(Math.toIntExact(settings.connectTimeout().toMillis()))
        .setReadTimeout(Math.toIntExact(settings.readTimeout().toMillis()))
        .setMaxNetworkRetries(settings.maxNetworkRetries())
        .build();
    log.info("Stripe gateway at {}", settings.apiBase());
  }

  @Override
  public GatewayCharge charge(GatewayChargeRequest request) {
    String key = request.idempotencyKey();
    StripePaymentMethodToken token;
    try {
      token = StripePaymentMethodToken.parse(request.paymentMethodToken());
    } catch (IllegalArgumentException e) {
      throw new PaymentDeclinedException("invalid_payment_method", e.getMessage(),
          DeclineKind.HARD);
    }
    PaymentIntentCreateParams.Builder params = PaymentIntentCreateParams.builder()
        .setAmount(StripeAmounts.toStripe(request.amount()))
        .setCurrency(StripeAmounts.currency(request.amount()))
        .setPaymentMethod(token.paymentMethod())
        .setOffSession(true)
        .setConfirm(true)
        .setAutomaticPaymentMethods(PaymentIntentCreateParams.AutomaticPaymentMethods.builder()
            .setEnabled(true)
            .setAllowRedirects(
                PaymentIntentCreateParams.AutomaticPaymentMethods.AllowRedirects.NEVER)
            .build());
    if (token.customer() != null) {
      params.setCustomer(token.customer());
    }
    if (request.description() != null) {
      params.setDescription(request.description());
    }
    request.metadata().forEach(params::putMetadata);
    params.putMetadata(GatewayChargeRequest.IDEMPOTENCY_KEY, key);

    PaymentIntent intent;
    try {
      intent = client.v1().paymentIntents().create(params.build(), idempotent(key));
    } catch (StripeException e) {
      throw StripeErrors.translate(e, "charge " + key, token.paymentMethod(), token.customer());
    }
    boolean replayed = replayed(intent);
    log.debug("Stripe charge {}: {} {}{}", key, intent.getId(), intent.getStatus(),
        replayed ? " (replayed)" : "");
    Instant created = Instant.ofEpochSecond(intent.getCreated());
    switch (String.valueOf(intent.getStatus())) {
      case "succeeded":
        return new GatewayCharge(intent.getId(), created, replayed, false);
      case "processing":
        return new GatewayCharge(intent.getId(), created, replayed, true);
      case "requires_payment_method":
        throw decline(intent.getLastPaymentError(), token);
      case "requires_action":
        // Off-session confirmation normally fails with authentication_required instead; if the
        // intent waits for the customer anyway, the customer has to act: a hard decline.
        throw new PaymentDeclinedException("authentication_required",
            "The payment needs the customer to authenticate.", DeclineKind.HARD);
      default:
        throw new InvalidGatewayRequestException(InvalidGatewayRequestException.UNEXPECTED_STATE,
            "PaymentIntent " + intent.getId() + " is " + intent.getStatus()
                + " after an off-session confirmation");
    }
  }

  @Override
  public GatewayRefund refund(RefundRequest request) {
    RefundCreateParams.Builder params = RefundCreateParams.builder()
        .setPaymentIntent(request.transactionId())
        .setAmount(StripeAmounts.toStripe(request.amount()))
        .putMetadata(GatewayChargeRequest.IDEMPOTENCY_KEY, request.idempotencyKey());
    if (request.reason() != null) {
      params.setReason(switch (request.reason()) {
        case REQUESTED_BY_CUSTOMER -> RefundCreateParams.Reason.REQUESTED_BY_CUSTOMER;
        case DUPLICATE -> RefundCreateParams.Reason.DUPLICATE;
        case FRAUDULENT -> RefundCreateParams.Reason.FRAUDULENT;
      });
    }
    Refund refund;
    try {
      refund = client.v1().refunds().create(params.build(), idempotent(request.idempotencyKey()));
    } catch (StripeException e) {
      throw StripeErrors.translate(e, "refund " + request.idempotencyKey());
    }
    log.debug("Stripe refund {}: {} {}", request.idempotencyKey(), refund.getId(),
        refund.getStatus());
    return new GatewayRefund(refund.getId(),
        StripeAmounts.fromStripe(refund.getAmount(), refund.getCurrency()),
        Instant.ofEpochSecond(refund.getCreated()));
  }

  @Override
  public GatewayChargeState lookUp(ChargeQuery query) {
    String idempotencyKey = query.idempotencyKey();
    PaymentIntentSearchParams params = PaymentIntentSearchParams.builder()
        .setQuery("metadata['" + GatewayChargeRequest.IDEMPOTENCY_KEY + "']:'"
            + quote(idempotencyKey) + "'")
        .addExpand("data.latest_charge")
        .setLimit(10L)
        .build();
    List<PaymentIntent> found;
    try {
      found = client.v1().paymentIntents().search(params).getData();
    } catch (StripeException e) {
      throw StripeErrors.translate(e, "look-up " + idempotencyKey);
    }
    if (found == null || found.isEmpty()) {
      return GatewayChargeState.notFound(idempotencyKey);
    }
    if (found.size() > 1) {
      // Only possible when a key was reused after Stripe forgot it (24 h): prefer the one that
      // moved money, so a retry is never started on top of it.
      log.warn("{} PaymentIntents carry idempotency key {}", found.size(), idempotencyKey);
    }
    return found.stream()
        .map(this::state)
        .min(Comparator.comparing((GatewayChargeState s) -> s.status() == Status.FAILED)
            .thenComparing(GatewayChargeState::createdAt, Comparator.reverseOrder()))
        .orElseThrow();
  }

  @Override
  public List<GatewayChargeState> listCharges(Instant from, Instant to) {
    PaymentIntentListParams params = PaymentIntentListParams.builder()
        .setCreated(PaymentIntentListParams.Created.builder()
            .setGte(from.getEpochSecond())
            .setLt(ceilSeconds(to))
            .build())
        .addExpand("data.latest_charge")
        .setLimit(PAGE_SIZE)
        .build();
    List<GatewayChargeState> charges = new ArrayList<>();
    paginate("list charges", () -> {
      for (PaymentIntent intent : list(() -> client.v1().paymentIntents().list(params))
          .autoPagingIterable()) {
        charges.add(state(intent));
      }
    });
    charges.sort(Comparator.comparing(GatewayChargeState::createdAt)
        .thenComparing(GatewayChargeState::transactionId));
    return charges;
  }

  @Override
  public List<GatewayEvent> listEvents(Instant from, Instant to) {
    EventListParams params = EventListParams.builder()
        .setCreated(EventListParams.Created.builder()
            .setGte(from.getEpochSecond())
            .setLt(ceilSeconds(to))
            .build())
        .addAllType(EVENT_TYPES)
        .setLimit(PAGE_SIZE)
        .build();
    List<GatewayEvent> events = new ArrayList<>();
    paginate("list events", () -> {
      for (Event event : list(() -> client.v1().events().list(params)).autoPagingIterable()) {
        event(event).ifPresent(events::add);
      }
    });
    events.sort(Comparator.comparing(GatewayEvent::occurredAt).thenComparing(GatewayEvent::id));
    return events;
  }

  private Optional<GatewayEvent> event(Event event) {
    StripeObject object = dataObject(event);
    if (object == null) {
      return Optional.empty();
    }
    Instant at = Instant.ofEpochSecond(event.getCreated());
    switch (event.getType()) {
      case "payment_intent.succeeded": {
        PaymentIntent intent = (PaymentIntent) object;
        return ours(intent.getMetadata()).map(m -> new GatewayEvent(event.getId(),
            GatewayEvent.Type.SUCCEEDED, at, m.key(), intent.getId(), m.subscriptionId(),
            m.cycle(), amount(intent), null, null));
      }
      case "payment_intent.payment_failed": {
        PaymentIntent intent = (PaymentIntent) object;
        StripeError error = intent.getLastPaymentError();
        return ours(intent.getMetadata()).map(m -> new GatewayEvent(event.getId(),
            GatewayEvent.Type.FAILED, at, m.key(), intent.getId(), m.subscriptionId(), m.cycle(),
            amount(intent), failureCode(error), error == null ? null : error.getMessage()));
      }
      case "charge.refunded": {
        Charge charge = (Charge) object;
        Map<String, String> metadata = ours(charge.getMetadata()).isPresent()
            ? charge.getMetadata() : intentMetadata(charge.getPaymentIntent());
        return ours(metadata).map(m -> new GatewayEvent(event.getId(),
            GatewayEvent.Type.REFUNDED, at, m.key(),
            charge.getPaymentIntent() != null ? charge.getPaymentIntent() : charge.getId(),
            m.subscriptionId(), m.cycle(),
            StripeAmounts.fromStripe(charge.getAmountRefunded(), charge.getCurrency()), null,
            null));
      }
      case "charge.dispute.created": {
        Dispute dispute = (Dispute) object;
        if (!BankDebitReturns.isReturn(
            dispute.getPaymentMethodDetails() == null ? null : dispute.getPaymentMethodDetails().getType(),
            dispute.getNetworkReasonCode(), dispute.getCharge())) {
          return Optional.empty(); // a card chargeback: not a return, not dunned
        }
        String intentId = dispute.getPaymentIntent();
        return ours(intentMetadata(intentId)).map(m -> new GatewayEvent(event.getId(),
            GatewayEvent.Type.RETURNED, at, m.key(), intentId, m.subscriptionId(), m.cycle(),
            StripeAmounts.fromStripe(dispute.getAmount(), dispute.getCurrency()),
            dispute.getReason(), "The charge was disputed (a bank debit: returned) by the"
                + " customer's bank: " + dispute.getReason()));
      }
      default:
        return Optional.empty();
    }
  }

  private GatewayChargeState state(PaymentIntent intent) {
    Money amount = amount(intent);
    Charge charge = intent.getLatestChargeObject();
    Money refunded = charge != null && charge.getAmountRefunded() != null
        ? StripeAmounts.fromStripe(charge.getAmountRefunded(), intent.getCurrency())
        : Money.zero(amount.currency());
    Optional<Ours> ours = ours(intent.getMetadata());
    String key = intent.getMetadata() == null ? null
        : intent.getMetadata().get(GatewayChargeRequest.IDEMPOTENCY_KEY);
    Instant created = Instant.ofEpochSecond(intent.getCreated());
    StripeError error = intent.getLastPaymentError();
    Status status;
    String code = null;
    String message = null;
    switch (String.valueOf(intent.getStatus())) {
      case "succeeded" -> {
        if (charge != null && Boolean.TRUE.equals(charge.getDisputed()) && BankDebitReturns.isReturn(
            charge.getPaymentMethodDetails() == null ? null : charge.getPaymentMethodDetails().getType(),
            null, charge.getId())) {
          status = Status.RETURNED;
          code = "disputed";
          message = "The charge was disputed (a bank debit: returned) by the customer's bank.";
        } else {
          status = Status.SUCCEEDED;
        }
      }
      case "processing", "requires_capture" -> status = Status.PENDING;
      case "canceled" -> {
        status = Status.FAILED;
        code = intent.getCancellationReason() != null ? intent.getCancellationReason() : "canceled";
        message = "The PaymentIntent was canceled.";
      }
      case "requires_action" -> {
        status = Status.FAILED;
        code = "authentication_required";
        message = "The payment needs the customer to authenticate.";
      }
      default -> {
        status = Status.FAILED;
        code = error != null ? failureCode(error) : intent.getStatus();
        message = error != null ? error.getMessage() : "PaymentIntent is " + intent.getStatus();
      }
    }
    return new GatewayChargeState(status, key, intent.getId(), amount, refunded,
        ours.map(Ours::subscriptionId).orElse(null), ours.map(Ours::cycle).orElse(null), created,
        null, null, code, message);
  }

  private PaymentDeclinedException decline(StripeError error, StripePaymentMethodToken token) {
    if (error == null) {
      return new PaymentDeclinedException("card_declined", "Your card was declined.");
    }
    String code = failureCode(error);
    return new PaymentDeclinedException(code,
        StripeErrors.redact(error.getMessage(), token.paymentMethod(), token.customer()),
        DeclineCodes.kindOf(error.getAdviceCode(),
            error.getDeclineCode(), error.getCode()));
  }

  private Map<String, String> intentMetadata(String intentId) {
    if (intentId == null) {
      return null;
    }
    try {
      return client.v1().paymentIntents().retrieve(intentId).getMetadata();
    } catch (StripeException e) {
      throw StripeErrors.translate(e, "retrieve " + intentId);
    }
  }

  private static StripeObject dataObject(Event event) {
    // Empty when the event was rendered with another API version than stripe-java's; the fields
    // read here are stable across versions, so fall back to reading it anyway.
    Optional<StripeObject> object = event.getDataObjectDeserializer().getObject();
    if (object.isPresent()) {
      return object.get();
    }
    try {
      return event.getDataObjectDeserializer().deserializeUnsafe();
    } catch (EventDataObjectDeserializationException e) {
      log.error("Skipping Stripe event {} ({}): its data object cannot be read: {}",
          event.getId(), event.getType(), e.getMessage());
      return null;
    }
  }

  private record Ours(String key, String subscriptionId, long cycle) {}

  private static Optional<Ours> ours(Map<String, String> metadata) {
    if (metadata == null) {
      return Optional.empty();
    }
    String subscription = metadata.get(GatewayChargeRequest.SUBSCRIPTION_ID);
    String cycle = metadata.get(GatewayChargeRequest.CYCLE);
    if (subscription == null || cycle == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(new Ours(metadata.get(GatewayChargeRequest.IDEMPOTENCY_KEY), subscription,
          Long.parseLong(cycle)));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static Money amount(PaymentIntent intent) {
    return StripeAmounts.fromStripe(intent.getAmount(), intent.getCurrency());
  }

  private static String failureCode(StripeError error) {
    if (error == null) {
      return null;
    }
    if (error.getDeclineCode() != null && !error.getDeclineCode().isEmpty()) {
      return error.getDeclineCode();
    }
    return error.getCode() != null && !error.getCode().isEmpty() ? error.getCode() : "declined";
  }

  private static boolean replayed(StripeObject response) {
    return response.getLastResponse() != null
        && response.getLastResponse().headers().firstValue(REPLAYED_HEADER)
            .map("true"::equalsIgnoreCase).orElse(false);
  }

  private static RequestOptions idempotent(String key) {
    return RequestOptions.builder().setIdempotencyKey(key).build();
  }

  /** Escapes a value for a single-quoted string of Stripe's search query language. */
  static String quote(String value) {
    return value.replace("\\", "\\\\").replace("'", "\\'");
  }

  private static long ceilSeconds(Instant t) {
    return t.getNano() == 0 ? t.getEpochSecond() : t.getEpochSecond() + 1;
  }

  private interface StripeCall<T> {
    T call() throws StripeException;
  }

  private static <T> T list(StripeCall<T> call) {
    try {
      return call.call();
    } catch (StripeException e) {
      throw new PagingFailure(e);
    }
  }

  /** Runs a listing; a failure of the first page or of a later page's fetch maps alike. */
  private static void paginate(String what, Runnable listing) {
    try {
      listing.run();
    } catch (PagingFailure e) {
      throw StripeErrors.translate(e.stripe, what);
    } catch (PaymentGatewayException e) {
      throw e;
    } catch (RuntimeException e) {
      // stripe-java's auto-pagination wraps the StripeException of a later page.
      if (e.getCause() instanceof StripeException stripe) {
        throw StripeErrors.translate(stripe, what);
      }
      throw new GatewayUnavailableException("Stripe listing failed for " + what + ": " + e, e);
    }
  }

  private static final class PagingFailure extends RuntimeException {
    private final transient StripeException stripe;

    PagingFailure(StripeException stripe) {
      super(stripe);
      this.stripe = Objects.requireNonNull(stripe);
    }
  }
}
