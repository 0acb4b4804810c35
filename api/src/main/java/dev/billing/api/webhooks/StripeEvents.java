package dev.billing.api.webhooks;

import static dev.billing.api.webhooks.EventJson.put;
import static dev.billing.api.webhooks.EventJson.putMessage;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.stripe.model.Event;
import com.stripe.model.StripeObject;
import com.stripe.net.ApiResource;
import dev.billing.activities.payments.stripe.StripeAmounts;
import dev.billing.activities.payments.stripe.StripeMetadata;
import dev.billing.activities.payments.stripe.StripePaymentEvents;
import dev.billing.activities.payments.stripe.StripeWebhookReads;
import dev.billing.domain.ChargeRefund;
import dev.billing.domain.PaymentEvent;
import dev.billing.store.events.ChargeOwner;
import dev.billing.store.events.StoredEvent;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stripe's events ({@code Stripe-Signature}), read by stripe-java ({@link Event}) and mapped by
 * {@link StripePaymentEvents}, the reading the Stripe adapter's event listing uses too. What the
 * event lacks is looked up here: the disputed Charge's payment method type and a refunded Charge's
 * refunds from Stripe, and whose charge a PaymentIntent is from events stored earlier ({@code
 * ByTransaction} index). A refunds list that cannot be read leaves the event to its refunded total,
 * which the workflow records under a name the total makes unique, never twice; a payment method
 * that cannot be read is a 503, since it decides between a return and a chargeback.
 *
 * <p>An event whose object this stripe-java cannot deserialize (an incompatible API version) is
 * refused with a 400 and not stored when it is of a type billing acts on: stored, it would never be
 * read again (the reconciliation's replay skips stored ids), while refused, Stripe delivers it
 * again for three days and the replay lists it, both of which read it once the build or the
 * endpoint's API version is fixed. Of any other type it is stored with what its envelope says.
 */
final class StripeEvents implements WebhookProvider {
  static final String HEADER = "Stripe-Signature";
  private static final Logger LOG = LoggerFactory.getLogger(StripeEvents.class);

  private final StripePaymentEvents.Lookups lookups;

  /**
   * @param ownerOfPaymentIntent whose charge a PaymentIntent is, from events stored earlier
   * @param stripe a Charge's payment method type and refunds, read from Stripe; empty when unknown
   *     (no API key on this process); throws when Stripe cannot be read
   */
  StripeEvents(
      Function<String, Optional<ChargeOwner>> ownerOfPaymentIntent, StripeWebhookReads stripe) {
    this.lookups =
        new StripePaymentEvents.Lookups() {
          @Override
          public Optional<StripePaymentEvents.DisputedCharge> disputedCharge(String chargeId) {
            try {
              return stripe
                  .paymentMethodType(chargeId)
                  .map(type -> new StripePaymentEvents.DisputedCharge(type, null));
            } catch (RuntimeException e) {
              throw new WebhookDependencyException(
                  "the disputed charge "
                      + chargeId
                      + " could not be read from Stripe: "
                      + e.getMessage());
            }
          }

          @Override
          public Optional<StripeMetadata.Owner> owner(String paymentIntentId) {
            return ownerOfPaymentIntent
                .apply(paymentIntentId)
                .map(
                    o ->
                        new StripeMetadata.Owner(
                            o.subscriptionId(), o.cycle(), o.idempotencyKey()));
          }

          @Override
          public List<ChargeRefund> refunds(String chargeId) {
            try {
              return stripe.refunds(chargeId);
            } catch (RuntimeException e) {
              LOG.warn(
                  "The refunds of {} could not be read from Stripe ({}): the refunded total"
                      + " alone is signalled",
                  chargeId,
                  e.getMessage());
              return List.of();
            }
          }
        };
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
  public WebhookSignatures.Verdict verify(
      SignatureHeader header, byte[] body, byte[] secret, Instant now) {
    return StripeSignatures.verify(header, body, secret, now);
  }

  @Override
  public ParsedEvent parse(byte[] body, Instant receivedAt) {
    Event event = event(body);
    StripePaymentEvents.Reading reading;
    try {
      reading = StripePaymentEvents.read(event, lookups);
    } catch (StripePaymentEvents.UnreadableObjectException e) {
      if (StripePaymentEvents.isOutcomeType(event.getType())) {
        LOG.error(
            "Stripe event {} ({}) refused: {}", event.getId(), event.getType(), e.getMessage());
        throw new WebhookPayloadException("the event cannot be read: " + e.getMessage());
      }
      StoredEvent stored =
          new StoredEvent(
              STRIPE,
              event.getId(),
              event.getType(),
              null,
              null,
              null,
              null,
              null,
              Instant.ofEpochSecond(event.getCreated()),
              receivedAt,
              Map.of());
      return ParsedEvent.storedOnly(stored, "its object cannot be read: " + e.getMessage());
    }

    Long cycle = reading.cycle();
    Map<String, String> summary = summary(reading);
    StoredEvent stored =
        new StoredEvent(
            STRIPE,
            reading.eventId(),
            reading.type(),
            reading.outcome(),
            reading.subscriptionId(),
            cycle,
            reading.idempotencyKey(),
            reading.transactionId(),
            reading.occurredAt(),
            receivedAt,
            summary);
    if (reading.outcome() == null) {
      return ParsedEvent.storedOnly(
          stored,
          reading.unsignalled() != null
              ? reading.unsignalled()
              : "type " + reading.type() + " is not a charge outcome");
    }
    if (!reading.isOurs()) {
      return ParsedEvent.storedOnly(stored, "the charge carries no subscription id and cycle");
    }
    return ParsedEvent.signalled(
        stored,
        new PaymentEvent(
            reading.eventId(),
            STRIPE,
            reading.outcome(),
            reading.subscriptionId(),
            cycle,
            reading.idempotencyKey(),
            reading.transactionId(),
            summary.get("failureCode"),
            summary.get("failureMessage"),
            reading.occurredAt(),
            reading.movedAmount(),
            reading.refunds()));
  }

  /** The envelope, checked as before stripe-java reads it: a wrong shape is the sender's 400. */
  private static Event event(byte[] body) {
    JsonElement root;
    try {
      root = JsonParser.parseString(new String(body, StandardCharsets.UTF_8));
    } catch (JsonParseException e) {
      throw new WebhookPayloadException("the body is not JSON");
    }
    if (!root.isJsonObject()) {
      throw new WebhookPayloadException("the body is not a JSON object");
    }
    JsonObject json = root.getAsJsonObject();
    Event event;
    try {
      event =
          StripeObject.deserializeStripeObject(
              json, Event.class, ApiResource.getGlobalResponseGetter());
    } catch (JsonParseException | IllegalStateException | UnsupportedOperationException e) {
      throw new WebhookPayloadException("the body is not a Stripe event: " + e.getMessage());
    }
    if (event.getId() == null || event.getId().isEmpty()) {
      throw new WebhookPayloadException("the event has no id");
    }
    if (event.getType() == null || event.getType().isEmpty()) {
      throw new WebhookPayloadException("the event has no type");
    }
    if (event.getCreated() == null || event.getCreated() < 0) {
      throw new WebhookPayloadException("the event has no created time (Unix seconds)");
    }
    JsonElement data = json.get("data");
    if (data == null
        || !data.isJsonObject()
        || data.getAsJsonObject().get("object") == null
        || !data.getAsJsonObject().get("object").isJsonObject()) {
      throw new WebhookPayloadException("the event has no data.object");
    }
    return event;
  }

  private static Map<String, String> summary(StripePaymentEvents.Reading reading) {
    Map<String, String> summary = new LinkedHashMap<>();
    if (reading.currency() != null) {
      put(summary, "currency", reading.currency().toUpperCase(java.util.Locale.ROOT));
      if (reading.amountMinor() != null) {
        put(summary, "amount", decimal(reading.amountMinor(), reading.currency()));
      }
    }
    reading
        .details()
        .forEach(
            (name, value) -> {
              if (!name.equals("livemode")) {
                put(summary, name, value);
              }
            });
    put(summary, "failureCode", reading.failureCode());
    putMessage(summary, "failureMessage", reading.failureMessage());
    put(summary, "livemode", reading.details().get("livemode"));
    return summary;
  }

  /**
   * Stripe amounts are in the currency's minor unit; the summary shows "9.99" like the rest of the
   * API.
   */
  private static String decimal(long minor, String currency) {
    try {
      return StripeAmounts.fromStripe(minor, currency).toPlainString();
    } catch (RuntimeException unknownCurrency) {
      return minor + " (minor units)";
    }
  }
}
