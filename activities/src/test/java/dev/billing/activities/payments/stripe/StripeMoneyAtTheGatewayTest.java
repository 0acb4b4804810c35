package dev.billing.activities.payments.stripe;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.billing.activities.payments.stripe.StripeJson.CREATED;
import static dev.billing.activities.payments.stripe.StripeJson.CREATED_AT;
import static dev.billing.activities.payments.stripe.StripeJson.INTENT;
import static dev.billing.activities.payments.stripe.StripeJson.KEY;
import static dev.billing.activities.payments.stripe.StripeJson.OURS;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonParser;
import com.stripe.Stripe;
import com.stripe.model.Event;
import com.stripe.model.StripeObject;
import com.stripe.net.ApiResource;
import dev.billing.activities.payments.ChargeQuery;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayChargeState.Status;
import dev.billing.domain.ChargeRefund;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentEvent;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Money that moves at Stripe outside billing's calls, read the way billing reads it: refunds made
 * in the dashboard and card disputes, by the charge look-up (the workflow's and reconciliation's
 * read) and by the webhook mapping with the reads the API makes ({@link StripeChargeMethods}).
 */
class StripeMoneyAtTheGatewayTest extends StripeStubTest {
  private static final String CHARGE = "ch_3QxTestCharge01";
  private static final String OWN_KEY = "refund:sub-1:3:req:ab12";

  private static final String DASHBOARD_REFUND =
      StripeJson.dashboardRefund("re_3QxTestDash01", INTENT, 300, CREATED + 60);
  private static final String OWN_REFUND =
      StripeJson.refund("re_3QxTestOwn01", INTENT, 699, CREATED + 120, OWN_KEY, "succeeded", null);
  private static final ChargeRefund DASHBOARD =
      new ChargeRefund("re_3QxTestDash01", new Money(300, "USD"), null, CREATED_AT.plusSeconds(60));
  private static final ChargeRefund OWN =
      new ChargeRefund(
          "re_3QxTestOwn01", new Money(699, "USD"), OWN_KEY, CREATED_AT.plusSeconds(120));

  @Test
  void theLookUpReadsAChargeRefundedInPartsWithEachRefund() {
    // A dashboard refund of 3.00, then billing's own of the 6.99 left.
    intentWithCharge(StripeJson.withRefunds(charge(300, false), false, DASHBOARD_REFUND));

    GatewayChargeState partly = lookUp();

    assertThat(partly.status()).isEqualTo(Status.SUCCEEDED);
    assertThat(partly.refunded()).isEqualTo(new Money(300, "USD"));
    assertThat(partly.refunds()).containsExactly(DASHBOARD);

    intentWithCharge(
        StripeJson.withRefunds(charge(999, false), false, OWN_REFUND, DASHBOARD_REFUND));

    GatewayChargeState fully = lookUp();

    assertThat(fully.status()).isEqualTo(Status.SUCCEEDED);
    assertThat(fully.refunded()).isEqualTo(StripeJson.PRICE);
    assertThat(fully.refunds()).containsExactly(OWN, DASHBOARD);
    // The refunds come expanded with the charge: no call of their own.
    stripe.verify(
        2,
        getRequestedFor(urlPathEqualTo("/v1/payment_intents"))
            .withQueryParam("expand[0]", equalTo("data.latest_charge"))
            .withQueryParam("expand[1]", equalTo("data.latest_charge.refunds")));
    stripe.verify(0, getRequestedFor(urlPathEqualTo("/v1/refunds")));
  }

  @Test
  void refundsBeyondTheEmbeddedPageAreListed() {
    intentWithCharge(StripeJson.withRefunds(charge(999, false), true, OWN_REFUND));
    refundsList(OWN_REFUND, DASHBOARD_REFUND);

    List<GatewayChargeState> listed = gateway.listCharges(CREATED_AT, CREATED_AT.plusSeconds(3600));

    assertThat(listed)
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.refunded()).isEqualTo(StripeJson.PRICE);
              assertThat(s.refunds()).containsExactly(OWN, DASHBOARD);
            });
  }

  @Test
  void aCardDisputeReadsAsReturnedOnlyOnceLost() {
    intentWithCharge(charge(0, true));

    disputes("needs_response");
    assertThat(lookUp().status()).as("open").isEqualTo(Status.SUCCEEDED);

    disputes("won");
    assertThat(lookUp().status()).as("won").isEqualTo(Status.SUCCEEDED);

    disputes("lost");
    GatewayChargeState lost = lookUp();
    assertThat(lost.status()).isEqualTo(Status.RETURNED);
    assertThat(lost.failureCode()).isEqualTo("dispute_lost");
    assertThat(lost.failureMessage()).isEqualTo("dispute lost: fraudulent");
    assertThat(lost.returnedAt()).isEqualTo(CREATED_AT.plusSeconds(600));
    assertThat(lost.amount()).isEqualTo(StripeJson.PRICE);
    stripe.verify(
        3,
        getRequestedFor(urlPathEqualTo("/v1/disputes")).withQueryParam("charge", equalTo(CHARGE)));
  }

  @Test
  void theWebhookReadsARefundedChargeWithItsTotalAndItsRefunds() {
    // Events of the library's API version do not embed the refunds: the API lists them.
    refundsList(DASHBOARD_REFUND);
    PaymentEvent partly = webhook("evt_1", "charge.refunded", CREATED + 61, charge(300, false));

    assertThat(partly.type()).isEqualTo(PaymentEvent.Type.CHARGE_REFUNDED);
    assertThat(partly.transactionId()).isEqualTo(INTENT);
    assertThat(partly.amount()).isEqualTo(new Money(300, "USD"));
    assertThat(partly.refunds()).containsExactly(DASHBOARD);

    refundsList(OWN_REFUND, DASHBOARD_REFUND);
    PaymentEvent fully = webhook("evt_2", "charge.refunded", CREATED + 121, charge(999, false));

    assertThat(fully.amount()).isEqualTo(StripeJson.PRICE);
    assertThat(fully.refunds()).containsExactly(OWN, DASHBOARD);
  }

  @Test
  void theWebhookReadsACardDisputeCreatedThenClosedLostOrWon() {
    stripe.stubFor(get(urlPathEqualTo("/v1/charges/" + CHARGE)).willReturn(ok(charge(0, true))));

    PaymentEvent created =
        webhook("evt_1", "charge.dispute.created", CREATED + 600, dispute("needs_response"));
    PaymentEvent lost = webhook("evt_2", "charge.dispute.closed", CREATED + 9000, dispute("lost"));
    PaymentEvent won = webhook("evt_3", "charge.dispute.closed", CREATED + 9000, dispute("won"));

    assertThat(created.type()).isEqualTo(PaymentEvent.Type.CHARGE_DISPUTED);
    assertThat(created.amount()).isEqualTo(StripeJson.PRICE);
    assertThat(created.failureCode()).isEqualTo("fraudulent");
    assertThat(lost.type()).isEqualTo(PaymentEvent.Type.CHARGE_RETURNED);
    assertThat(lost.failureCode()).isEqualTo("dispute_lost");
    assertThat(won.type()).isEqualTo(PaymentEvent.Type.DISPUTE_WON);
    for (PaymentEvent event : List.of(created, lost, won)) {
      assertThat(event.subscriptionId()).isEqualTo("sub-1");
      assertThat(event.cycle()).isEqualTo(3L);
      assertThat(event.transactionId()).isEqualTo(INTENT);
    }
  }

  private GatewayChargeState lookUp() {
    return gateway.lookUp(new ChargeQuery(KEY, StripeJson.TOKEN, CREATED_AT));
  }

  private static String charge(long refunded, boolean disputed) {
    return StripeJson.charge(CHARGE, INTENT, 999, refunded, disputed, CREATED, OURS);
  }

  private static String dispute(String status) {
    return StripeJson.cardDispute(
        "du_3QxTestDispute01", CHARGE, INTENT, 999, CREATED + 600, "fraudulent", status);
  }

  private void intentWithCharge(String charge) {
    stripe.stubFor(
        get(urlPathEqualTo("/v1/payment_intents"))
            .willReturn(
                ok(StripeJson.list(
                        "/v1/payment_intents",
                        false,
                        StripeJson.paymentIntent(
                            INTENT, "succeeded", 999, CREATED, KEY, null, charge)))
                    .withTransformers(StripeListFilter.NAME)));
  }

  private void refundsList(String... refunds) {
    stripe.stubFor(
        get(urlPathEqualTo("/v1/refunds"))
            .withQueryParam("charge", equalTo(CHARGE))
            .willReturn(ok(StripeJson.list("/v1/refunds", false, refunds))));
  }

  private void disputes(String status) {
    stripe.stubFor(
        get(urlPathEqualTo("/v1/disputes"))
            .withQueryParam("charge", equalTo(CHARGE))
            .willReturn(ok(StripeJson.list("/v1/disputes", false, dispute(status)))));
  }

  /** What the API's webhook intake signals for this event, with the API's reads of Stripe. */
  private PaymentEvent webhook(String id, String type, long created, String object) {
    String body = StripeJson.event(id, type, created, Stripe.API_VERSION, object);
    Event event =
        StripeObject.deserializeStripeObject(
            JsonParser.parseString(body).getAsJsonObject(),
            Event.class,
            ApiResource.getGlobalResponseGetter());
    StripeChargeMethods reads = new StripeChargeMethods(settings());
    StripePaymentEvents.Reading reading =
        StripePaymentEvents.read(
            event,
            new StripePaymentEvents.Lookups() {
              @Override
              public Optional<StripePaymentEvents.DisputedCharge> disputedCharge(String charge) {
                return reads
                    .paymentMethodType(charge)
                    .map(t -> new StripePaymentEvents.DisputedCharge(t, null));
              }

              @Override
              public Optional<StripeMetadata.Owner> owner(String paymentIntentId) {
                return Optional.of(new StripeMetadata.Owner("sub-1", 3L, KEY));
              }

              @Override
              public List<ChargeRefund> refunds(String charge) {
                return reads.refunds(charge);
              }
            });
    assertThat(reading.isOurs()).isTrue();
    return new PaymentEvent(
        reading.eventId(),
        "stripe",
        reading.outcome(),
        reading.subscriptionId(),
        reading.cycle(),
        reading.idempotencyKey(),
        reading.transactionId(),
        reading.failureCode(),
        reading.failureMessage(),
        reading.occurredAt(),
        reading.movedAmount(),
        reading.refunds());
  }
}
