package dev.billing.api.webhooks;

import dev.billing.domain.BankDebitReturns;
import static dev.billing.api.webhooks.EventJson.put;
import static dev.billing.api.webhooks.EventJson.putMessage;
import static dev.billing.api.webhooks.EventJson.text;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.domain.Money;
import dev.billing.store.events.ChargeOwner;
import dev.billing.store.events.StoredEvent;
import dev.billing.workflows.PaymentEvent;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Stripe's events ({@code Stripe-Signature}). Our charges are PaymentIntents whose metadata holds
 * {@link #SUBSCRIPTION_ID}, {@link #CYCLE} and {@link #IDEMPOTENCY_KEY}; Stripe copies that metadata
 * to the PaymentIntent's charge, so charge events carry it too. The transaction id is the
 * PaymentIntent's id, whichever object the event is about, as in the Stripe adapter.
 *
 * <ul>
 *   <li>{@code payment_intent.succeeded}: CHARGE_SUCCEEDED (for a bank debit, it settled).
 *   <li>{@code payment_intent.payment_failed}: CHARGE_FAILED (for a bank debit, before settling).
 *   <li>{@code charge.refunded}: CHARGE_REFUNDED.
 *   <li>{@code charge.dispute.created} of a bank debit (the disputed Charge's payment method type
 *       says so, read from Stripe as the adapter does): CHARGE_RETURNED. Stripe reports an ACH
 *       failure that arrives after the payment succeeded (a return) as a dispute. A card dispute is
 *       a chargeback, not a return: stored, not signalled, because dunning a customer who disputed
 *       the charge would only make it worse.
 *   <li>Anything else: stored, not signalled.
 * </ul>
 *
 * <p>An event of these types without our metadata (every dispute) is routed by an earlier stored
 * event of the same PaymentIntent that had it ({@code ByTransaction} index).
 */
final class StripeEvents implements WebhookProvider {
  static final String HEADER = "Stripe-Signature";
  static final String SUBSCRIPTION_ID = "subscriptionId";
  static final String CYCLE = "cycle";
  static final String IDEMPOTENCY_KEY = "idempotencyKey";

  static final String DISPUTE_CREATED = "charge.dispute.created";
  private static final Map<String, PaymentEvent.Type> TYPES = Map.of(
      "payment_intent.succeeded", PaymentEvent.Type.CHARGE_SUCCEEDED,
      "payment_intent.payment_failed", PaymentEvent.Type.CHARGE_FAILED,
      "charge.refunded", PaymentEvent.Type.CHARGE_REFUNDED,
      DISPUTE_CREATED, PaymentEvent.Type.CHARGE_RETURNED);

  private final Function<String, Optional<ChargeOwner>> ownerOfPaymentIntent;
  private final Function<String, Optional<String>> paymentMethodOfCharge;

  /**
   * @param ownerOfPaymentIntent whose charge a PaymentIntent is, from events stored earlier
   * @param paymentMethodOfCharge a Charge's {@code payment_method_details.type}, read from Stripe;
   *     empty when unknown (no API key on this process); throws when Stripe cannot be read
   */
  StripeEvents(Function<String, Optional<ChargeOwner>> ownerOfPaymentIntent,
      Function<String, Optional<String>> paymentMethodOfCharge) {
    this.ownerOfPaymentIntent = ownerOfPaymentIntent;
    this.paymentMethodOfCharge = paymentMethodOfCharge;
  }

  @Override
  public String name() {
    return STRIPE;
  }

  @Override
  public String signatureHeader() {
    return HEADER;
  }

  @Override
  public WebhookSignatures.Verdict verify(SignatureHeader header, byte[] body, byte[] secret,
      Instant now) {
    return StripeSignatures.verify(header, body, secret, now);
  }

  @Override
  public ParsedEvent parse(byte[] body, Instant receivedAt) {
    JsonNode event = EventJson.read(body);
    String eventId = EventJson.required(event, "id");
    String type = EventJson.required(event, "type");
    Instant occurredAt = EventJson.created(event);
    JsonNode object = event.path("data").path("object");
    if (!object.isObject()) {
      throw new WebhookPayloadException("the event has no data.object");
    }
    String kind = text(object, "object");

    String transactionId = transactionId(kind, object);
    JsonNode metadata = object.path("metadata");
    String subscriptionId = text(metadata, SUBSCRIPTION_ID);
    String idempotencyKey = text(metadata, IDEMPOTENCY_KEY);
    Long cycle = EventJson.wholeNumber(metadata, CYCLE);

    PaymentEvent.Type outcome = TYPES.get(type);
    String notSignalled = null;
    if (DISPUTE_CREATED.equals(type) && !isBankDebitReturn(object)) {
      outcome = null;
      notSignalled = "a card dispute is a chargeback, not a bank debit return";
    }
    if (outcome != null && subscriptionId == null && transactionId != null) {
      // A dispute never carries our metadata; a charge made before its PaymentIntent had it neither.
      Optional<ChargeOwner> owner = ownerOfPaymentIntent.apply(transactionId);
      if (owner.isPresent()) {
        subscriptionId = owner.get().subscriptionId();
        cycle = owner.get().cycle();
        idempotencyKey = owner.get().idempotencyKey();
      }
    }
    if (cycle == null) {
      cycle = EventJson.cycleOfKey(idempotencyKey, subscriptionId);
    }

    String[] failure = failure(type, object);
    Map<String, String> summary = summary(type, kind, object, failure);
    StoredEvent stored = new StoredEvent(STRIPE, eventId, type, outcome, subscriptionId, cycle,
        idempotencyKey, transactionId, occurredAt, receivedAt, summary);
    if (outcome == null) {
      return ParsedEvent.storedOnly(stored,
          notSignalled != null ? notSignalled : "type " + type + " is not a charge outcome");
    }
    if (subscriptionId == null || cycle == null) {
      return ParsedEvent.storedOnly(stored, "the charge carries no subscription id and cycle");
    }
    return ParsedEvent.signalled(stored, new PaymentEvent(eventId, STRIPE, outcome, subscriptionId,
        cycle, idempotencyKey, transactionId, summary.get("failureCode"),
        summary.get("failureMessage"), occurredAt));
  }

  /**
   * The rule the Stripe adapter applies to the same event: the disputed Charge's payment method
   * type decides. Without it, the dispute's own type (card-like methods only) can rule a return
   * out; the remaining signs are BankDebitReturns' fallback.
   */
  private boolean isBankDebitReturn(JsonNode dispute) {
    String charge = text(dispute, "charge");
    String type = charge == null ? null : paymentMethodOf(charge);
    if (type == null) {
      type = text(dispute.path("payment_method_details"), "type");
    }
    return BankDebitReturns.isReturn(type, text(dispute, "network_reason_code"), charge);
  }

  private String paymentMethodOf(String charge) {
    try {
      return paymentMethodOfCharge.apply(charge).orElse(null);
    } catch (RuntimeException e) {
      throw new WebhookDependencyException("the disputed charge " + charge
          + " could not be read from Stripe: " + e.getMessage());
    }
  }

  /**
   * The PaymentIntent's id, as the Stripe adapter reports the charge; a charge made without one (not
   * by this system) is known by its own id.
   */
  private static String transactionId(String kind, JsonNode object) {
    if ("payment_intent".equals(kind)) {
      return text(object, "id");
    }
    String paymentIntent = text(object, "payment_intent");
    if (paymentIntent != null) {
      return paymentIntent;
    }
    return "charge".equals(kind) ? text(object, "id") : text(object, "charge");
  }

  /** {code, message}: the decline of a failed PaymentIntent, the return code of a dispute. */
  private static String[] failure(String type, JsonNode object) {
    if ("payment_intent.payment_failed".equals(type)) {
      JsonNode error = object.path("last_payment_error");
      String code = text(error, "decline_code");
      return new String[] {code != null ? code : text(error, "code"), text(error, "message")};
    }
    if (DISPUTE_CREATED.equals(type)) {
      String code = text(object, "network_reason_code");
      return new String[] {code != null ? code : text(object, "reason"),
          "disputed: " + Optional.ofNullable(text(object, "reason")).orElse("no reason given")};
    }
    return new String[] {text(object, "failure_code"), text(object, "failure_message")};
  }

  private static Map<String, String> summary(String type, String kind, JsonNode object,
      String[] failure) {
    Map<String, String> summary = new LinkedHashMap<>();
    String currency = text(object, "currency");
    Long minor = EventJson.wholeNumber(object,
        "charge.refunded".equals(type) ? "amount_refunded" : "amount");
    if (currency != null) {
      String code = currency.toUpperCase(Locale.ROOT);
      put(summary, "currency", code);
      if (minor != null) {
        put(summary, "amount", decimal(minor, code));
      }
    }
    if ("charge".equals(kind)) {
      put(summary, "chargeId", text(object, "id"));
    } else if ("dispute".equals(kind)) {
      put(summary, "chargeId", text(object, "charge"));
      put(summary, "disputeId", text(object, "id"));
      put(summary, "disputeReason", text(object, "reason"));
    } else if ("payment_intent".equals(kind)) {
      put(summary, "chargeId", text(object, "latest_charge"));
    }
    put(summary, "status", text(object, "status"));
    put(summary, "failureCode", failure[0]);
    putMessage(summary, "failureMessage", failure[1]);
    put(summary, "livemode", text(object, "livemode"));
    return summary;
  }

  /** Stripe amounts are in the currency's minor unit; the summary shows "9.99" like the rest of the API. */
  private static String decimal(long minor, String currency) {
    try {
      return new Money(minor, currency).toPlainString();
    } catch (RuntimeException unknownCurrency) {
      return minor + " (minor units)";
    }
  }
}
