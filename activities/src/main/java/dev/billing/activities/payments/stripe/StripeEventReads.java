package dev.billing.activities.payments.stripe;

import static dev.billing.activities.payments.stripe.StripePaging.PAGE_SIZE;
import static dev.billing.activities.payments.stripe.StripePaging.ceilSeconds;
import static dev.billing.activities.payments.stripe.StripePaging.list;
import static dev.billing.activities.payments.stripe.StripePaging.paginate;

import com.stripe.StripeClient;
import com.stripe.exception.StripeException;
import com.stripe.model.Charge;
import com.stripe.model.Event;
import com.stripe.param.ChargeRetrieveParams;
import com.stripe.param.EventListParams;
import dev.billing.activities.payments.GatewayEvent;
import dev.billing.domain.ChargeRefund;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The events about our charges in a time window, from Stripe's events list, each read as the
 * webhook intake reads it ({@link StripePaymentEvents}); what an event lacks (the disputed Charge's
 * payment method, a PaymentIntent's metadata, a Charge's refunds) is read from Stripe itself.
 */
final class StripeEventReads {
  // The gateway's logger: operators filter Stripe's calls by that one name.
  private static final Logger log = LoggerFactory.getLogger(StripeGateway.class);

  static final List<String> EVENT_TYPES =
      List.of(
          "payment_intent.succeeded",
          "payment_intent.payment_failed",
          "charge.refunded",
          "charge.dispute.created",
          "charge.dispute.closed");

  private final StripeClient client;
  private final StripeChargeDetails details;

  StripeEventReads(StripeClient client) {
    this.client = client;
    this.details = new StripeChargeDetails(client);
  }

  List<GatewayEvent> listEvents(Instant from, Instant to) {
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
          return details.refunds(chargeId);
        }
      };

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
}
