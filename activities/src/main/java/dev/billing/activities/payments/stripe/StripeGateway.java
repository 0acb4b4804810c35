package dev.billing.activities.payments.stripe;

import static dev.billing.activities.payments.stripe.StripePaging.list;
import static dev.billing.activities.payments.stripe.StripePaging.paginate;
import static dev.billing.activities.payments.stripe.StripePaymentIntents.failureCode;
import static dev.billing.activities.payments.stripe.StripePaymentIntents.hasAmount;
import static dev.billing.activities.payments.stripe.StripePaymentIntents.state;

import com.stripe.StripeClient;
import com.stripe.exception.StripeException;
import com.stripe.model.Charge;
import com.stripe.model.Event;
import com.stripe.model.PaymentIntent;
import com.stripe.model.Refund;
import com.stripe.model.StripeError;
import com.stripe.model.StripeObject;
import com.stripe.net.RequestOptions;
import com.stripe.param.ChargeRetrieveParams;
import com.stripe.param.EventListParams;
import com.stripe.param.PaymentIntentCreateParams;
import com.stripe.param.PaymentIntentListParams;
import com.stripe.param.RefundCreateParams;
import com.stripe.param.RefundListParams;
import dev.billing.activities.payments.ChargeQuery;
import dev.billing.activities.payments.DeclineCodes;
import dev.billing.activities.payments.DeclineKind;
import dev.billing.activities.payments.GatewayCharge;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayChargeState.Status;
import dev.billing.activities.payments.GatewayEvent;
import dev.billing.activities.payments.GatewayRefund;
import dev.billing.activities.payments.InvalidGatewayRequestException;
import dev.billing.activities.payments.PaymentDeclinedException;
import dev.billing.activities.payments.PaymentGateway;
import dev.billing.activities.payments.RefundRequest;
import dev.billing.domain.ChargeRefund;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
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
 *       {subscriptionId, cycle, idempotencyKey}, and the key as the {@code Idempotency-Key} header.
 *       Status succeeded is a settled charge, processing a pending one (bank debits); {@code
 *       Idempotent-Replayed: true} on the response marks a replay. The transaction id is the
 *       PaymentIntent's id. Stripe keeps idempotency keys for at least 24 hours, far longer than
 *       Temporal's retries of one attempt (about a minute).
 *   <li><b>refund</b>: a Refund of the PaymentIntent with its own idempotency key. The Refund's own
 *       status decides: succeeded is done, pending and requires_action are accepted but not final
 *       (Stripe may still fail them), failed and canceled are a refusal.
 *   <li><b>lookUp</b>: the list endpoint, not the Search API (search lags a minute, up to an hour
 *       in incidents): PaymentIntents created since the query's {@code sentFrom} (less {@link
 *       #CLOCK_SLACK}, since {@code created} is Stripe's clock and {@code sentFrom} ours), narrowed
 *       to the token's customer when it names one, every page, filtered on {@code
 *       metadata.idempotencyKey}. Lists are not delayed, so NOT_FOUND proves that no PaymentIntent
 *       with the key was created since then; it never relies on an idempotency replay, which Stripe
 *       forgets after 24 hours.
 *   <li><b>listCharges / listEvents</b>: the list endpoints with {@code created[gte]/[lt]} (whole
 *       seconds; the window is widened to whole seconds, receivers deduplicate by id) and
 *       auto-pagination. Stripe keeps events for 30 days.
 * </ul>
 *
 * <p>Events: payment_intent.succeeded is SUCCEEDED, payment_intent.payment_failed FAILED,
 * charge.refunded REFUNDED (amount = amount_refunded, with the Charge's refunds listed), charge
 * .dispute.created of a bank debit RETURNED (BankDebitReturns), of a card DISPUTED, and
 * charge.dispute.closed of a card DISPUTE_WON or, lost, RETURNED ({@link StripePaymentEvents}). A
 * dispute's own {@code payment_method_details} only ever names card-like methods (card, klarna,
 * paypal, amazon_pay), so the disputed Charge is retrieved (with its PaymentIntent expanded, for
 * our metadata) and its {@code payment_method_details.type} ({@code us_bank_account}) decides.
 * Stripe reports a bank debit taken back after it succeeded (an ACH return such as R10
 * "unauthorized", a SEPA refund request) as a dispute, and debits the disputed amount when it opens
 * one, so a new dispute of a bank debit is the moment the money is gone. Events about charges
 * without our metadata (made outside this system) are left out.
 *
 * <p>Errors: see {@link StripeErrors}. The API key and payment method tokens are never logged.
 */
public final class StripeGateway implements PaymentGateway {
  private static final Logger log = LoggerFactory.getLogger(StripeGateway.class);

  static final String REPLAYED_HEADER = "Idempotent-Replayed";
  static final List<String> EVENT_TYPES =
      List.of(
          "payment_intent.succeeded",
          "payment_intent.payment_failed",
          "charge.refunded",
          "charge.dispute.created",
          "charge.dispute.closed");
  private static final long PAGE_SIZE = 100;

  /** How far Stripe's clock may run behind ours: a look-up lists from this much before sentFrom. */
  static final Duration CLOCK_SLACK = Duration.ofMinutes(5);

  /** The port's refusal code for a refund Stripe reports as failed or canceled. */
  static final String REFUND_FAILED = "refund_failed";

  private final StripeClient client;

  public StripeGateway(StripeSettings settings) {
    this.client = client(settings);
    log.info("Stripe gateway at {}", settings.apiBase());
  }

  static StripeClient client(StripeSettings settings) {
    return StripeClient.builder()
        .setApiKey(settings.apiKey())
        .setApiBase(settings.apiBase())
        .setConnectTimeout(Math.toIntExact(settings.connectTimeout().toMillis()))
        .setReadTimeout(Math.toIntExact(settings.readTimeout().toMillis()))
        .setMaxNetworkRetries(settings.maxNetworkRetries())
        .build();
  }

  @Override
  public GatewayCharge charge(GatewayChargeRequest request) {
    String key = request.idempotencyKey();
    StripePaymentMethodToken token;
    try {
      token = StripePaymentMethodToken.parse(request.paymentMethodToken());
    } catch (IllegalArgumentException e) {
      throw new PaymentDeclinedException(
          "invalid_payment_method", e.getMessage(), DeclineKind.HARD);
    }
    PaymentIntentCreateParams.Builder params =
        PaymentIntentCreateParams.builder()
            .setAmount(StripeAmounts.toStripe(request.amount()))
            .setCurrency(StripeAmounts.currency(request.amount()))
            .setPaymentMethod(token.paymentMethod())
            .setOffSession(true)
            .setConfirm(true)
            .setAutomaticPaymentMethods(
                PaymentIntentCreateParams.AutomaticPaymentMethods.builder()
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
    log.debug(
        "Stripe charge {}: {} {}{}",
        key,
        intent.getId(),
        intent.getStatus(),
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
        throw new PaymentDeclinedException(
            "authentication_required",
            "The payment needs the customer to authenticate.",
            DeclineKind.HARD);
      default:
        throw new InvalidGatewayRequestException(
            InvalidGatewayRequestException.UNEXPECTED_STATE,
            "PaymentIntent "
                + intent.getId()
                + " is "
                + intent.getStatus()
                + " after an off-session confirmation");
    }
  }

  @Override
  public GatewayRefund refund(RefundRequest request) {
    RefundCreateParams.Builder params =
        RefundCreateParams.builder()
            .setPaymentIntent(request.transactionId())
            .setAmount(StripeAmounts.toStripe(request.amount()))
            .putMetadata(GatewayChargeRequest.IDEMPOTENCY_KEY, request.idempotencyKey());
    if (request.reason() != null) {
      params.setReason(
          switch (request.reason()) {
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
    log.debug(
        "Stripe refund {}: {} {}", request.idempotencyKey(), refund.getId(), refund.getStatus());
    boolean pending =
        switch (String.valueOf(refund.getStatus())) {
          case "succeeded" -> false;
          case "failed", "canceled" ->
              throw new InvalidGatewayRequestException(
                  REFUND_FAILED,
                  "Stripe refund "
                      + refund.getId()
                      + " for "
                      + request.idempotencyKey()
                      + " is "
                      + refund.getStatus()
                      + (refund.getFailureReason() == null
                          ? ""
                          : " (" + refund.getFailureReason() + ")"));
          case "pending", "requires_action" -> true;
          default -> {
            // Not final until Stripe says so: recording an unknown state as done could lose a
            // refund.
            log.warn(
                "Stripe refund {} for {} has status {}: taken as pending",
                refund.getId(),
                request.idempotencyKey(),
                refund.getStatus());
            yield true;
          }
        };
    return new GatewayRefund(
        refund.getId(),
        StripeAmounts.fromStripe(refund.getAmount(), refund.getCurrency()),
        Instant.ofEpochSecond(refund.getCreated()),
        pending);
  }

  @Override
  public GatewayChargeState lookUp(ChargeQuery query) {
    String idempotencyKey = query.idempotencyKey();
    long from = query.sentFrom().minus(CLOCK_SLACK).getEpochSecond();
    PaymentIntentListParams.Builder params =
        PaymentIntentListParams.builder()
            .setCreated(PaymentIntentListParams.Created.builder().setGte(from).build())
            .addExpand("data.latest_charge")
            .setLimit(PAGE_SIZE);
    customerOf(query.paymentMethodToken()).ifPresent(params::setCustomer);
    List<GatewayChargeState> found = new ArrayList<>();
    paginate(
        "look-up " + idempotencyKey,
        () -> {
          for (PaymentIntent intent :
              list(() -> client.v1().paymentIntents().list(params.build())).autoPagingIterable()) {
            if (intent.getCreated() != null
                && intent.getCreated() >= from
                && hasAmount(intent)
                && carriesKey(intent, idempotencyKey)) {
              found.add(state(intent));
            }
          }
        });
    if (found.isEmpty()) {
      return GatewayChargeState.notFound(idempotencyKey);
    }
    if (found.size() > 1) {
      // Only possible when a key was reused after Stripe forgot it (24 h): prefer the one that
      // moved money, so a retry is never started on top of it.
      log.warn("{} PaymentIntents carry idempotency key {}", found.size(), idempotencyKey);
    }
    return found.stream()
        .min(
            Comparator.comparing((GatewayChargeState s) -> s.status() == Status.FAILED)
                .thenComparing(GatewayChargeState::createdAt, Comparator.reverseOrder()))
        .orElseThrow();
  }

  private static boolean carriesKey(PaymentIntent intent, String idempotencyKey) {
    return intent.getMetadata() != null
        && idempotencyKey.equals(intent.getMetadata().get(GatewayChargeRequest.IDEMPOTENCY_KEY));
  }

  /** The customer a look-up can be narrowed to; none for a bare or unreadable token. */
  private static Optional<String> customerOf(String token) {
    if (token == null) {
      return Optional.empty();
    }
    try {
      return Optional.ofNullable(StripePaymentMethodToken.parse(token).customer());
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  @Override
  public List<GatewayChargeState> listCharges(Instant from, Instant to) {
    PaymentIntentListParams params =
        PaymentIntentListParams.builder()
            .setCreated(
                PaymentIntentListParams.Created.builder()
                    .setGte(from.getEpochSecond())
                    .setLt(ceilSeconds(to))
                    .build())
            .addExpand("data.latest_charge")
            .setLimit(PAGE_SIZE)
            .build();
    List<GatewayChargeState> charges = new ArrayList<>();
    int[] skipped = {0};
    paginate(
        "list charges",
        () -> {
          for (PaymentIntent intent :
              list(() -> client.v1().paymentIntents().list(params)).autoPagingIterable()) {
            if (hasAmount(intent)) {
              charges.add(state(intent));
            } else {
              skipped[0]++;
            }
          }
        });
    if (skipped[0] > 0) {
      // Stripe's description makes both optional; this system always sets them, so these
      // PaymentIntents were made elsewhere (another integration on the account).
      log.info(
          "Skipped {} PaymentIntents without amount or currency listing charges from {} to {}",
          skipped[0],
          from,
          to);
    }
    charges.sort(
        Comparator.comparing(GatewayChargeState::createdAt)
            .thenComparing(GatewayChargeState::transactionId));
    return charges;
  }

  @Override
  public List<GatewayEvent> listEvents(Instant from, Instant to) {
    EventListParams params =
        EventListParams.builder()
            .setCreated(
                EventListParams.Created.builder()
                    .setGte(from.getEpochSecond())
                    .setLt(ceilSeconds(to))
                    .build())
            .addAllType(EVENT_TYPES)
            .setLimit(PAGE_SIZE)
            .build();
    List<GatewayEvent> events = new ArrayList<>();
    paginate(
        "list events",
        () -> {
          for (Event event : list(() -> client.v1().events().list(params)).autoPagingIterable()) {
            event(event).ifPresent(events::add);
          }
        });
    events.sort(Comparator.comparing(GatewayEvent::occurredAt).thenComparing(GatewayEvent::id));
    return events;
  }

  private Optional<GatewayEvent> event(Event event) {
    StripePaymentEvents.Reading reading;
    try {
      reading = StripePaymentEvents.read(event, lookups);
    } catch (StripePaymentEvents.UnreadableObjectException e) {
      log.error(
          "Skipping Stripe event {} ({}): {}", event.getId(), event.getType(), e.getMessage());
      return Optional.empty();
    }
    // Card chargebacks and charges made outside this system are left out, as the webhook leaves
    // them unsignalled.
    if (!reading.isOurs() || reading.amountMinor() == null || reading.currency() == null) {
      return Optional.empty();
    }
    GatewayEvent.Type type =
        switch (reading.outcome()) {
          case CHARGE_SUCCEEDED -> GatewayEvent.Type.SUCCEEDED;
          case CHARGE_FAILED -> GatewayEvent.Type.FAILED;
          case CHARGE_RETURNED -> GatewayEvent.Type.RETURNED;
          case CHARGE_REFUNDED -> GatewayEvent.Type.REFUNDED;
          case CHARGE_DISPUTED -> GatewayEvent.Type.DISPUTED;
          case DISPUTE_WON -> GatewayEvent.Type.DISPUTE_WON;
        };
    return Optional.of(
        new GatewayEvent(
            reading.eventId(),
            type,
            reading.occurredAt(),
            reading.idempotencyKey(),
            reading.transactionId(),
            reading.subscriptionId(),
            reading.cycle(),
            StripeAmounts.fromStripe(reading.amountMinor(), reading.currency()),
            reading.failureCode(),
            reading.failureMessage(),
            reading.refunds()));
  }

  /** The adapter reads what an event lacks from Stripe itself. */
  private final StripePaymentEvents.Lookups lookups =
      new StripePaymentEvents.Lookups() {
        @Override
        public Optional<StripePaymentEvents.DisputedCharge> disputedCharge(String chargeId) {
          Charge charge = disputedChargeOf(chargeId);
          StripeMetadata.Owner owner =
              charge.getPaymentIntentObject() == null
                  ? null
                  : StripeMetadata.ours(charge.getPaymentIntentObject().getMetadata());
          return Optional.of(
              new StripePaymentEvents.DisputedCharge(StripeChargeMethods.typeOf(charge), owner));
        }

        @Override
        public Optional<StripeMetadata.Owner> owner(String paymentIntentId) {
          return Optional.ofNullable(StripeMetadata.ours(intentMetadata(paymentIntentId)));
        }

        @Override
        public List<ChargeRefund> refunds(String chargeId) {
          return refundsOf(chargeId);
        }
      };

  /** The Charge's refunds that moved money, every page. */
  private List<ChargeRefund> refundsOf(String chargeId) {
    RefundListParams params =
        RefundListParams.builder().setCharge(chargeId).setLimit(PAGE_SIZE).build();
    List<ChargeRefund> refunds = new ArrayList<>();
    paginate(
        "list refunds of " + chargeId,
        () -> {
          for (Refund refund :
              list(() -> client.v1().refunds().list(params)).autoPagingIterable()) {
            ChargeRefund read = StripePaymentEvents.refund(refund);
            if (read != null) {
              refunds.add(read);
            }
          }
        });
    return refunds;
  }

  private PaymentDeclinedException decline(StripeError error, StripePaymentMethodToken token) {
    if (error == null) {
      return new PaymentDeclinedException("card_declined", "Your card was declined.");
    }
    String code = failureCode(error);
    return new PaymentDeclinedException(
        code,
        StripeErrors.redact(error.getMessage(), token.paymentMethod(), token.customer()),
        DeclineCodes.kindOf(error.getAdviceCode(), error.getDeclineCode(), error.getCode()));
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

  /** The disputed Charge, which tells the payment method, with its PaymentIntent expanded. */
  private Charge disputedChargeOf(String chargeId) {
    try {
      return client
          .v1()
          .charges()
          .retrieve(chargeId, ChargeRetrieveParams.builder().addExpand("payment_intent").build());
    } catch (StripeException e) {
      throw StripeErrors.translate(e, "retrieve " + chargeId);
    }
  }

  private static boolean replayed(StripeObject response) {
    return response.getLastResponse() != null
        && response
            .getLastResponse()
            .headers()
            .firstValue(REPLAYED_HEADER)
            .map("true"::equalsIgnoreCase)
            .orElse(false);
  }

  private static RequestOptions idempotent(String key) {
    return RequestOptions.builder().setIdempotencyKey(key).build();
  }

  private static long ceilSeconds(Instant t) {
    return t.getNano() == 0 ? t.getEpochSecond() : t.getEpochSecond() + 1;
  }
}
