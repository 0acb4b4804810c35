package dev.billing.activities.payments.stripe;

import com.stripe.StripeClient;
import dev.billing.activities.payments.ChargeQuery;
import dev.billing.activities.payments.GatewayCharge;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayEvent;
import dev.billing.activities.payments.GatewayRefund;
import dev.billing.activities.payments.PaymentGateway;
import dev.billing.activities.payments.RefundRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
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
 *
 * <p>Each operation is its own class: {@link StripeCharges}, {@link StripeRefunds}, {@link
 * StripeChargeReads} (look-up and list) and {@link StripeEventReads}; they share the one client.
 */
public final class StripeGateway implements PaymentGateway {
  private static final Logger log = LoggerFactory.getLogger(StripeGateway.class);

  /** How far Stripe's clock may run behind ours: a look-up lists from this much before sentFrom. */
  static final Duration CLOCK_SLACK = Duration.ofMinutes(5);

  private final StripeCharges charges;
  private final StripeRefunds refunds;
  private final StripeChargeReads chargeReads;
  private final StripeEventReads eventReads;

  public StripeGateway(StripeSettings settings) {
    StripeClient client = client(settings);
    this.charges = new StripeCharges(client);
    this.refunds = new StripeRefunds(client);
    this.chargeReads = new StripeChargeReads(client);
    this.eventReads = new StripeEventReads(client);
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
    return charges.charge(request);
  }

  @Override
  public GatewayRefund refund(RefundRequest request) {
    return refunds.refund(request);
  }

  @Override
  public GatewayChargeState lookUp(ChargeQuery query) {
    return chargeReads.lookUp(query);
  }

  @Override
  public List<GatewayChargeState> listCharges(Instant from, Instant to) {
    return chargeReads.listCharges(from, to);
  }

  @Override
  public List<GatewayEvent> listEvents(Instant from, Instant to) {
    return eventReads.listEvents(from, to);
  }
}
