package dev.billing.activities.payments.stripe;

import static dev.billing.activities.payments.stripe.StripePaging.PAGE_SIZE;
import static dev.billing.activities.payments.stripe.StripePaging.ceilSeconds;
import static dev.billing.activities.payments.stripe.StripePaging.list;
import static dev.billing.activities.payments.stripe.StripePaging.paginate;
import static dev.billing.activities.payments.stripe.StripePaymentIntents.hasAmount;

import com.stripe.StripeClient;
import com.stripe.model.Charge;
import com.stripe.model.Dispute;
import com.stripe.model.PaymentIntent;
import com.stripe.param.PaymentIntentListParams;
import dev.billing.activities.payments.ChargeQuery;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayChargeState.Status;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The port's reads of charges on Stripe, through the PaymentIntents list endpoint (never the Search
 * API, which lags): the look-up of one idempotency key, and the charges of a time window. Each
 * PaymentIntent comes with its latest Charge and that Charge's first page of refunds expanded, so
 * the refunded total and the refunds that make it up (dashboard refunds among them) cost no call of
 * their own; only a Charge with more refunds than a page, and a disputed card Charge (whose Dispute
 * says whether it was lost), are read further ({@link StripeChargeDetails}).
 */
final class StripeChargeReads {
  // The gateway's logger: operators filter Stripe's calls by that one name.
  private static final Logger log = LoggerFactory.getLogger(StripeGateway.class);

  /** The latest Charge, and its refunds, with each listed PaymentIntent. */
  static final String EXPAND_CHARGE = "data.latest_charge";

  static final String EXPAND_REFUNDS = "data.latest_charge.refunds";

  private final StripeClient client;
  private final StripeChargeDetails details;

  StripeChargeReads(StripeClient client) {
    this.client = client;
    this.details = new StripeChargeDetails(client);
  }

  GatewayChargeState lookUp(ChargeQuery query) {
    String idempotencyKey = query.idempotencyKey();
    long from = query.sentFrom().minus(StripeGateway.CLOCK_SLACK).getEpochSecond();
    PaymentIntentListParams.Builder params =
        PaymentIntentListParams.builder()
            .setCreated(PaymentIntentListParams.Created.builder().setGte(from).build())
            .addExpand(EXPAND_CHARGE)
            .addExpand(EXPAND_REFUNDS)
            .setLimit(PAGE_SIZE);
    customerOf(query.paymentMethodToken()).ifPresent(params::setCustomer);
    List<PaymentIntent> withKey = new ArrayList<>();
    paginate(
        "look-up " + idempotencyKey,
        () -> {
          for (PaymentIntent intent :
              list(() -> client.v1().paymentIntents().list(params.build())).autoPagingIterable()) {
            if (intent.getCreated() != null
                && intent.getCreated() >= from
                && hasAmount(intent)
                && carriesKey(intent, idempotencyKey)) {
              withKey.add(intent);
            }
          }
        });
    List<GatewayChargeState> found = withKey.stream().map(this::state).toList();
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

  List<GatewayChargeState> listCharges(Instant from, Instant to) {
    PaymentIntentListParams params =
        PaymentIntentListParams.builder()
            .setCreated(
                PaymentIntentListParams.Created.builder()
                    .setGte(from.getEpochSecond())
                    .setLt(ceilSeconds(to))
                    .build())
            .addExpand(EXPAND_CHARGE)
            .addExpand(EXPAND_REFUNDS)
            .setLimit(PAGE_SIZE)
            .build();
    List<PaymentIntent> intents = new ArrayList<>();
    int[] skipped = {0};
    paginate(
        "list charges",
        () -> {
          for (PaymentIntent intent :
              list(() -> client.v1().paymentIntents().list(params)).autoPagingIterable()) {
            if (hasAmount(intent)) {
              intents.add(intent);
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
    List<GatewayChargeState> charges = new ArrayList<>(intents.stream().map(this::state).toList());
    charges.sort(
        Comparator.comparing(GatewayChargeState::createdAt)
            .thenComparing(GatewayChargeState::transactionId));
    return charges;
  }

  /** The intent's state, with what its latest Charge's refunds and dispute add. */
  private GatewayChargeState state(PaymentIntent intent) {
    Charge charge = intent.getLatestChargeObject();
    Dispute dispute =
        StripePaymentIntents.cardDisputed(charge)
            ? details.dispute(charge.getId()).orElse(null)
            : null;
    return StripePaymentIntents.state(
        intent, charge == null ? List.of() : details.refunds(charge), dispute);
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
}
