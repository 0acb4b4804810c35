package dev.billing.activities.payments.stripe;

import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import com.stripe.Stripe;
import com.stripe.exception.ApiConnectionException;
import dev.billing.activities.payments.DeclineKind;
import dev.billing.activities.payments.GatewayCharge;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayChargeState.Status;
import dev.billing.activities.payments.GatewayEvent;
import dev.billing.activities.payments.GatewayEvent.Type;
import dev.billing.activities.payments.GatewayUnavailableException;
import dev.billing.activities.payments.IdempotencyConflictException;
import dev.billing.activities.payments.InvalidGatewayRequestException;
import dev.billing.activities.payments.PaymentDeclinedException;
import dev.billing.domain.ChargeRefund;
import dev.billing.domain.Money;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** StripeGateway's charges, events and listings against a WireMock Stripe. */
class StripeGatewayTest extends StripeStubTest {
  private static final String KEY = StripeJson.KEY;
  private static final String INTENT = StripeJson.INTENT;
  private static final long CREATED = StripeJson.CREATED;
  private static final Instant CREATED_AT = StripeJson.CREATED_AT;
  private static final Money PRICE = StripeJson.PRICE;

  @Test
  void chargesOffSessionConfirmedWithTheKeyAndOurMetadata() {
    stripe.stubFor(
        post(urlEqualTo("/v1/payment_intents")).willReturn(ok(StripeJson.intent("succeeded"))));

    GatewayCharge charge = gateway.charge(request());

    assertThat(charge).isEqualTo(new GatewayCharge(INTENT, CREATED_AT, false, false));
    stripe.verify(
        1,
        postRequestedFor(urlEqualTo("/v1/payment_intents"))
            .withHeader("Idempotency-Key", equalTo(KEY))
            .withHeader("Authorization", equalTo("Bearer " + API_KEY))
            .withFormParam("amount", equalTo("999"))
            .withFormParam("currency", equalTo("usd"))
            .withFormParam("customer", equalTo(StripeJson.CUSTOMER))
            .withFormParam("payment_method", equalTo(StripeJson.PAYMENT_METHOD))
            .withFormParam("off_session", equalTo("true"))
            .withFormParam("confirm", equalTo("true"))
            .withFormParam("automatic_payment_methods[enabled]", equalTo("true"))
            .withFormParam("automatic_payment_methods[allow_redirects]", equalTo("never"))
            .withFormParam("description", equalTo("pro-monthly, cycle 3"))
            .withFormParam("metadata[subscriptionId]", equalTo("sub-1"))
            .withFormParam("metadata[cycle]", equalTo("3"))
            .withFormParam("metadata[idempotencyKey]", equalTo(KEY)));
  }

  @Test
  void aGenericCardDeclineIsAHardDecline() {
    stripe.stubFor(
        post(urlEqualTo("/v1/payment_intents"))
            .willReturn(
                json(
                    402,
                    StripeJson.cardError(
                        "card_declined",
                        "generic_decline",
                        null,
                        "Your card was declined.",
                        StripeJson.declinedIntent("generic_decline")))));

    assertThatThrownBy(() -> gateway.charge(request()))
        .isInstanceOfSatisfying(
            PaymentDeclinedException.class,
            e -> {
              assertThat(e.code()).isEqualTo("generic_decline");
              assertThat(e.getMessage()).isEqualTo("Your card was declined.");
              assertThat(e.kind()).isEqualTo(DeclineKind.HARD);
            });
  }

  @Test
  void insufficientFundsIsASoftDecline() {
    stripe.stubFor(
        post(urlEqualTo("/v1/payment_intents"))
            .willReturn(
                json(
                    402,
                    StripeJson.cardError(
                        "card_declined",
                        "insufficient_funds",
                        "try_again_later",
                        "Your card has insufficient funds.",
                        StripeJson.declinedIntent("insufficient_funds")))));

    assertThatThrownBy(() -> gateway.charge(request()))
        .isInstanceOfSatisfying(
            PaymentDeclinedException.class,
            e -> {
              assertThat(e.code()).isEqualTo("insufficient_funds");
              assertThat(e.getMessage()).isEqualTo("Your card has insufficient funds.");
              assertThat(e.kind()).isEqualTo(DeclineKind.SOFT);
            });
  }

  @Test
  void theIssuersDoNotTryAgainAdviceMakesAnyDeclineHard() {
    stripe.stubFor(
        post(urlEqualTo("/v1/payment_intents"))
            .willReturn(
                json(
                    402,
                    StripeJson.cardError(
                        "card_declined",
                        "do_not_honor",
                        "do_not_try_again",
                        "Your card was declined.",
                        StripeJson.declinedIntent("do_not_honor")))));

    assertThatThrownBy(() -> gateway.charge(request()))
        .isInstanceOfSatisfying(
            PaymentDeclinedException.class,
            e -> {
              assertThat(e.code()).isEqualTo("do_not_honor");
              assertThat(e.kind()).isEqualTo(DeclineKind.HARD);
            });
  }

  @Test
  void anExpiredCardWithoutDeclineCodeIsHardByItsErrorCode() {
    stripe.stubFor(
        post(urlEqualTo("/v1/payment_intents"))
            .willReturn(
                json(
                    402,
                    StripeJson.cardError(
                        "expired_card",
                        null,
                        null,
                        "Your card has expired.",
                        StripeJson.declinedIntent("expired_card")))));

    assertThatThrownBy(() -> gateway.charge(request()))
        .isInstanceOfSatisfying(
            PaymentDeclinedException.class,
            e -> {
              assertThat(e.code()).isEqualTo("expired_card");
              assertThat(e.kind()).isEqualTo(DeclineKind.HARD);
            });
  }

  @Test
  void aLockTimeoutIsUnavailableAndTheRetryWithTheSameKeySucceeds() {
    // A 409 is answered before the endpoint runs: Stripe saves nothing for the key.
    stripe.stubFor(
        post(urlEqualTo("/v1/payment_intents"))
            .inScenario("409 then 200")
            .whenScenarioStateIs(Scenario.STARTED)
            .willReturn(
                json(
                    409,
                    StripeJson.invalidRequest(
                        "lock_timeout",
                        "payment_method",
                        "This object cannot be accessed right now because another API request or Stripe"
                            + " process is currently accessing it.")))
            .willSetStateTo("recovered"));
    stripe.stubFor(
        post(urlEqualTo("/v1/payment_intents"))
            .inScenario("409 then 200")
            .whenScenarioStateIs("recovered")
            .willReturn(ok(StripeJson.intent("succeeded"))));

    assertThatThrownBy(() -> gateway.charge(request()))
        .isInstanceOfSatisfying(
            GatewayUnavailableException.class,
            e -> assertThat(e.getMessage()).contains("HTTP 409").contains(KEY));
    GatewayCharge retried = gateway.charge(request());

    assertThat(retried).isEqualTo(new GatewayCharge(INTENT, CREATED_AT, false, false));
    assertThat(chargeRequests())
        .hasSize(2)
        .extracting(r -> r.getHeader("Idempotency-Key"))
        .containsExactly(KEY, KEY);
  }

  @Test
  void aServerErrorIsReplayedForItsKeySoItsOutcomeStaysUnknownUntilLookedUp() {
    // Stripe saves the 500 of an endpoint that ran and answers it again for the key: only a
    // look-up tells whether the PaymentIntent was made.
    stripe.stubFor(
        post(urlEqualTo("/v1/payment_intents"))
            .inScenario("500 then 200")
            .whenScenarioStateIs(Scenario.STARTED)
            .willReturn(json(500, StripeJson.apiError("An unknown error occurred")))
            .willSetStateTo("recovered"));
    stripe.stubFor(
        post(urlEqualTo("/v1/payment_intents"))
            .inScenario("500 then 200")
            .whenScenarioStateIs("recovered")
            .willReturn(ok(StripeJson.intent("succeeded"))));

    assertThatThrownBy(() -> gateway.charge(request()))
        .isInstanceOfSatisfying(
            GatewayUnavailableException.class,
            e ->
                assertThat(e.getMessage())
                    .contains("HTTP 500")
                    .contains("An unknown error occurred")
                    .contains(KEY));
    assertThatThrownBy(() -> gateway.charge(request()))
        .isInstanceOf(GatewayUnavailableException.class);
  }

  @Test
  void stripeJavasOwnRetriesCarryTheSameKey() {
    gateway = new StripeGateway(settings().withMaxNetworkRetries(1));
    stripe.stubFor(
        post(urlEqualTo("/v1/payment_intents"))
            .inScenario("503 then 200")
            .whenScenarioStateIs(Scenario.STARTED)
            .willReturn(
                json(503, StripeJson.apiError("Service unavailable"))
                    .withHeader("Stripe-Should-Retry", "true"))
            .willSetStateTo("recovered"));
    stripe.stubFor(
        post(urlEqualTo("/v1/payment_intents"))
            .inScenario("503 then 200")
            .whenScenarioStateIs("recovered")
            .willReturn(ok(StripeJson.intent("succeeded"))));

    GatewayCharge charge = gateway.charge(request());

    assertThat(charge.transactionId()).isEqualTo(INTENT);
    assertThat(chargeRequests())
        .extracting(r -> r.getHeader("Idempotency-Key"))
        .containsExactly(KEY, KEY);
  }

  @Test
  void aTimeoutIsUnavailable() {
    stripe.stubFor(
        post(urlEqualTo("/v1/payment_intents"))
            .willReturn(ok(StripeJson.intent("succeeded")).withFixedDelay(3_000)));
    StripeGateway impatient =
        new StripeGateway(settings().withTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(1)));

    assertThatThrownBy(() -> impatient.charge(request()))
        .isInstanceOfSatisfying(
            GatewayUnavailableException.class,
            e -> {
              assertThat(e.getCause()).isInstanceOf(ApiConnectionException.class);
              assertThat(e.getMessage()).contains("timed out");
            });
    // One request: neither stripe-java (0 network retries) nor HttpURLConnection resent the POST.
    assertThat(chargeRequests())
        .extracting(r -> r.getHeader("Idempotency-Key"))
        .containsExactly(KEY);
  }

  @Test
  void rateLimitingIsUnavailable() {
    stripe.stubFor(
        post(urlEqualTo("/v1/payment_intents"))
            .willReturn(
                json(
                    429,
                    "{\"error\": {\"code\": \"rate_limit\", \"message\": \"Too many requests hit the API too"
                        + " quickly.\", \"type\": \"invalid_request_error\"}}")));

    assertThatThrownBy(() -> gateway.charge(request()))
        .isInstanceOf(GatewayUnavailableException.class);
  }

  @Test
  void anIdempotentReplayIsMarkedReplayed() {
    stripe.stubFor(
        post(urlEqualTo("/v1/payment_intents")).willReturn(ok(StripeJson.intent("succeeded"))));

    GatewayCharge first = gateway.charge(request());
    GatewayCharge again = gateway.charge(request());

    assertThat(first).isEqualTo(new GatewayCharge(INTENT, CREATED_AT, false, false));
    assertThat(again).isEqualTo(new GatewayCharge(INTENT, CREATED_AT, true, false));
  }

  @Test
  void aProcessingIntentIsPending() {
    stripe.stubFor(
        post(urlEqualTo("/v1/payment_intents")).willReturn(ok(StripeJson.intent("processing"))));

    GatewayCharge charge = gateway.charge(request());

    assertThat(charge).isEqualTo(new GatewayCharge(INTENT, CREATED_AT, false, true));
  }

  @Test
  void aMissingPaymentMethodIsAHardDeclineThatDoesNotEchoTheToken() {
    stripe.stubFor(
        post(urlEqualTo("/v1/payment_intents"))
            .willReturn(
                json(
                    400,
                    StripeJson.invalidRequest(
                        "resource_missing",
                        "payment_method",
                        "No such PaymentMethod: '" + StripeJson.PAYMENT_METHOD + "'"))));

    assertThatThrownBy(() -> gateway.charge(request()))
        .isInstanceOfSatisfying(
            PaymentDeclinedException.class,
            e -> {
              assertThat(e.code()).isEqualTo("invalid_payment_method");
              assertThat(e.kind()).isEqualTo(DeclineKind.HARD);
              assertThat(e.getMessage()).doesNotContain(StripeJson.PAYMENT_METHOD);
            });
  }

  @Test
  void otherInvalidRequestsRedactTheTokenFromStripesMessage() {
    stripe.stubFor(
        post(urlEqualTo("/v1/payment_intents"))
            .willReturn(
                json(
                    400,
                    StripeJson.invalidRequest(
                        "payment_method_unexpected_state",
                        "payment_method",
                        "The PaymentMethod " + StripeJson.PAYMENT_METHOD + " is detached."))));

    assertThatThrownBy(() -> gateway.charge(request()))
        .isInstanceOfSatisfying(
            InvalidGatewayRequestException.class,
            e -> {
              assertThat(e.code()).isEqualTo("payment_method_unexpected_state");
              assertThat(e.getMessage())
                  .contains("The PaymentMethod [redacted] is detached.")
                  .doesNotContain(StripeJson.PAYMENT_METHOD);
            });
  }

  @Test
  void stripesIdempotencyErrorIsAConflictNotARefusal() {
    stripe.stubFor(
        post(urlEqualTo("/v1/payment_intents"))
            .willReturn(json(400, StripeIdempotency.idempotencyError(KEY))));

    assertThatThrownBy(() -> gateway.charge(request()))
        .isInstanceOfSatisfying(
            IdempotencyConflictException.class,
            e -> assertThat(e.getMessage()).contains(KEY).contains("other parameters"))
        .isNotInstanceOf(InvalidGatewayRequestException.class);
  }

  @Test
  void aKeyReusedWithAnotherAmountIsAnIdempotencyConflict() {
    stripe.stubFor(
        post(urlEqualTo("/v1/payment_intents")).willReturn(ok(StripeJson.intent("succeeded"))));
    gateway.charge(request());
    GatewayChargeRequest otherAmount =
        new GatewayChargeRequest(
            KEY,
            new Money(1999, "USD"),
            StripeJson.TOKEN,
            "pro-monthly, cycle 3",
            Map.of(GatewayChargeRequest.SUBSCRIPTION_ID, "sub-1", GatewayChargeRequest.CYCLE, "3"));

    assertThatThrownBy(() -> gateway.charge(otherAmount))
        .isInstanceOf(IdempotencyConflictException.class);
    assertThat(stripe.getAllServeEvents())
        .extracting(e -> e.getResponse().getStatus())
        .containsExactlyInAnyOrder(200, 400);
  }

  @Test
  void aRefusedApiKeyIsUnavailableAndNeverEchoed() {
    stripe.stubFor(
        post(urlEqualTo("/v1/payment_intents"))
            .willReturn(
                json(
                    401,
                    "{\"error\": {\"message\": \"Invalid API Key provided: sk_test_****gged\","
                        + " \"type\": \"invalid_request_error\"}}")));

    assertThatThrownBy(() -> gateway.charge(request()))
        .isInstanceOfSatisfying(
            GatewayUnavailableException.class,
            e -> assertThat(e.getMessage()).contains("STRIPE_API_KEY").doesNotContain(API_KEY));
  }

  @Test
  void listsEventsAcrossPagesOldestFirstAndMapsThemToOurCharges() {
    long t = CREATED;
    String page1 =
        StripeJson.list(
            "/v1/events",
            true,
            StripeJson.event(
                "evt_4",
                "payment_intent.succeeded",
                t + 40,
                Stripe.API_VERSION,
                StripeJson.paymentIntent(INTENT, "succeeded", 999, t, KEY, null, null)),
            StripeJson.event(
                "evt_3",
                "payment_intent.payment_failed",
                t + 30,
                Stripe.API_VERSION,
                StripeJson.declinedIntent("insufficient_funds")));
    String foreignIntent =
        StripeJson.paymentIntent("pi_3QxForeign01", "succeeded", 500, t, KEY, null, null)
            .replace(
                "\"metadata\": {\"cycle\": \"3\", \"idempotencyKey\": \""
                    + KEY
                    + "\", \"subscriptionId\": \"sub-1\"}",
                "\"metadata\": {}");
    String page2 =
        StripeJson.list(
            "/v1/events",
            false,
            StripeJson.event(
                "evt_2",
                "charge.refunded",
                t + 20,
                "2024-06-20",
                StripeJson.charge("ch_3QxTestCharge01", INTENT, 999, 999, false, t, "{}")),
            StripeJson.event(
                "evt_1",
                "charge.dispute.created",
                t + 20,
                Stripe.API_VERSION,
                StripeJson.dispute(
                    "du_3QxTestDispute01",
                    "py_3QxTestDebit01",
                    INTENT,
                    999,
                    t + 20,
                    "debit_not_authorized")),
            StripeJson.event(
                "evt_0b",
                "charge.dispute.created",
                t + 15,
                Stripe.API_VERSION,
                StripeJson.cardDispute(
                    "du_3QxTestDispute02",
                    "ch_3QxTestCharge02",
                    INTENT,
                    999,
                    t + 15,
                    "fraudulent")),
            StripeJson.event(
                "evt_0", "payment_intent.succeeded", t + 10, Stripe.API_VERSION, foreignIntent),
            StripeJson.event(
                "evt_5",
                "charge.dispute.closed",
                t + 50,
                Stripe.API_VERSION,
                StripeJson.cardDispute(
                    "du_3QxTestDispute02",
                    "ch_3QxTestCharge02",
                    INTENT,
                    999,
                    t + 15,
                    "fraudulent")));
    // charge.refunded of this API version does not embed the refunds: they are listed, billing's
    // own (its key in the metadata) and one made in the dashboard (none).
    stripe.stubFor(
        get(urlPathEqualTo("/v1/refunds"))
            .withQueryParam("charge", equalTo("ch_3QxTestCharge01"))
            .willReturn(
                ok(
                    StripeJson.list(
                        "/v1/refunds",
                        false,
                        StripeJson.refund(
                            "re_3QxTestOwn01",
                            INTENT,
                            300,
                            t + 5,
                            "refund:sub-1:3:req:ab12",
                            "succeeded",
                            null),
                        StripeJson.refund(
                                "re_3QxTestDash01", INTENT, 699, t + 19, "-", "succeeded", null)
                            .replace(
                                "\"metadata\": {\"idempotencyKey\": \"-\"}",
                                "\"metadata\": {}")))));
    // The disputed charges, with their PaymentIntent expanded: the ACH debit, and a card charge.
    stripe.stubFor(
        get(urlPathEqualTo("/v1/charges/py_3QxTestDebit01"))
            .withQueryParam("expand[0]", equalTo("payment_intent"))
            .willReturn(
                ok(
                    StripeJson.chargeWithIntent(
                        "py_3QxTestDebit01",
                        StripeJson.paymentIntent(INTENT, "succeeded", 999, t, KEY, null, null),
                        999,
                        0,
                        true,
                        t,
                        "{}",
                        "us_bank_account"))));
    stripe.stubFor(
        get(urlPathEqualTo("/v1/charges/ch_3QxTestCharge02"))
            .withQueryParam("expand[0]", equalTo("payment_intent"))
            .willReturn(
                ok(
                    StripeJson.chargeWithIntent(
                        "ch_3QxTestCharge02",
                        StripeJson.paymentIntent(INTENT, "succeeded", 999, t, KEY, null, null),
                        999,
                        0,
                        true,
                        t,
                        "{}",
                        "card"))));
    stripe.stubFor(
        get(urlPathEqualTo("/v1/events"))
            .withQueryParam("starting_after", absent())
            .willReturn(ok(page1)));
    stripe.stubFor(
        get(urlPathEqualTo("/v1/events"))
            .withQueryParam("starting_after", equalTo("evt_3"))
            .willReturn(ok(page2)));
    stripe.stubFor(
        get(urlEqualTo("/v1/payment_intents/" + INTENT))
            .willReturn(
                ok(StripeJson.paymentIntent(INTENT, "succeeded", 999, t, KEY, null, null))));
    Instant from = CREATED_AT;
    Instant to = CREATED_AT.plusSeconds(3600);

    List<GatewayEvent> events = gateway.listEvents(from, to);

    Instant at = CREATED_AT;
    assertThat(events)
        .containsExactly(
            new GatewayEvent(
                "evt_0b",
                Type.DISPUTED,
                at.plusSeconds(15),
                KEY,
                INTENT,
                "sub-1",
                3,
                PRICE,
                "fraudulent",
                "disputed: fraudulent"),
            new GatewayEvent(
                "evt_1",
                Type.RETURNED,
                at.plusSeconds(20),
                KEY,
                INTENT,
                "sub-1",
                3,
                PRICE,
                "debit_not_authorized",
                "disputed: debit_not_authorized"),
            new GatewayEvent(
                "evt_2",
                Type.REFUNDED,
                at.plusSeconds(20),
                KEY,
                INTENT,
                "sub-1",
                3,
                PRICE,
                null,
                null,
                List.of(
                    new ChargeRefund(
                        "re_3QxTestOwn01",
                        new Money(300, "USD"),
                        "refund:sub-1:3:req:ab12",
                        at.plusSeconds(5)),
                    new ChargeRefund(
                        "re_3QxTestDash01", new Money(699, "USD"), null, at.plusSeconds(19)))),
            new GatewayEvent(
                "evt_3",
                Type.FAILED,
                at.plusSeconds(30),
                KEY,
                INTENT,
                "sub-1",
                3,
                PRICE,
                "insufficient_funds",
                "Your card was declined."),
            new GatewayEvent(
                "evt_4",
                Type.SUCCEEDED,
                at.plusSeconds(40),
                KEY,
                INTENT,
                "sub-1",
                3,
                PRICE,
                null,
                null),
            new GatewayEvent(
                "evt_5",
                Type.RETURNED,
                at.plusSeconds(50),
                KEY,
                INTENT,
                "sub-1",
                3,
                PRICE,
                "dispute_lost",
                "dispute lost: fraudulent"));
    stripe.verify(
        2,
        getRequestedFor(urlPathEqualTo("/v1/events"))
            .withQueryParam("created[gte]", equalTo(Long.toString(CREATED)))
            .withQueryParam("created[lt]", equalTo(Long.toString(CREATED + 3600)))
            .withQueryParam("types[0]", equalTo("payment_intent.succeeded"))
            .withQueryParam("types[1]", equalTo("payment_intent.payment_failed"))
            .withQueryParam("types[2]", equalTo("charge.refunded"))
            .withQueryParam("types[3]", equalTo("charge.dispute.created"))
            .withQueryParam("types[4]", equalTo("charge.dispute.closed"))
            .withQueryParam("limit", equalTo("100")));
  }

  @Test
  void aFailureFetchingALaterPageIsUnavailable() {
    stripe.stubFor(
        get(urlPathEqualTo("/v1/events"))
            .withQueryParam("starting_after", absent())
            .willReturn(
                ok(
                    StripeJson.list(
                        "/v1/events",
                        true,
                        StripeJson.event(
                            "evt_4",
                            "payment_intent.succeeded",
                            CREATED,
                            Stripe.API_VERSION,
                            StripeJson.paymentIntent(
                                INTENT, "succeeded", 999, CREATED, KEY, null, null))))));
    stripe.stubFor(
        get(urlPathEqualTo("/v1/events"))
            .withQueryParam("starting_after", equalTo("evt_4"))
            .willReturn(json(500, StripeJson.apiError("An unknown error occurred"))));

    assertThatThrownBy(() -> gateway.listEvents(CREATED_AT, CREATED_AT.plusSeconds(60)))
        .isInstanceOf(GatewayUnavailableException.class);
  }

  @Test
  void listsChargesOfTheWindowAsOfNow() {
    stripe.stubFor(
        get(urlPathEqualTo("/v1/payment_intents"))
            .willReturn(
                ok(
                    StripeJson.list(
                        "/v1/payment_intents",
                        false,
                        StripeJson.paymentIntent(
                            "pi_3QxTestIntent02",
                            "processing",
                            999,
                            CREATED + 5,
                            "charge:sub-1:3:2",
                            null,
                            null),
                        StripeJson.paymentIntent(
                            INTENT, "succeeded", 999, CREATED, KEY, null, null)))));

    List<GatewayChargeState> charges = gateway.listCharges(CREATED_AT, CREATED_AT.plusMillis(1500));

    assertThat(charges)
        .extracting(GatewayChargeState::transactionId, GatewayChargeState::status)
        .containsExactly(
            tuple(INTENT, Status.SUCCEEDED), tuple("pi_3QxTestIntent02", Status.PENDING));
    // Stripe filters by whole seconds: the end is rounded up so nothing in the window is lost.
    stripe.verify(
        getRequestedFor(urlPathEqualTo("/v1/payment_intents"))
            .withQueryParam("created[gte]", equalTo(Long.toString(CREATED)))
            .withQueryParam("created[lt]", equalTo(Long.toString(CREATED + 2))));
  }

  @Test
  void listingSkipsIntentsWithoutAmountOrCurrencyThatOthersMade() {
    // Stripe's description makes both optional; another integration on the account may omit them.
    String noAmount =
        StripeJson.paymentIntent(
                "pi_3QxForeign02", "requires_payment_method", 0, CREATED + 1, "other", null, null)
            .replaceFirst("\"amount\": 0,", "")
            .replaceFirst("\"currency\": \"usd\",", "");
    stripe.stubFor(
        get(urlPathEqualTo("/v1/payment_intents"))
            .willReturn(
                ok(
                    StripeJson.list(
                        "/v1/payment_intents",
                        false,
                        noAmount,
                        StripeJson.paymentIntent(
                            INTENT, "succeeded", 999, CREATED, KEY, null, null)))));

    List<GatewayChargeState> charges = gateway.listCharges(CREATED_AT, CREATED_AT.plusSeconds(2));

    assertThat(charges).extracting(GatewayChargeState::transactionId).containsExactly(INTENT);
  }

  @Test
  void settingsComeFromTheEnvironmentAndHideTheKey() {
    StripeSettings settings = StripeSettings.fromEnvironment(Map.of("STRIPE_API_KEY", API_KEY));

    assertThat(settings.apiKey()).isEqualTo(API_KEY);
    assertThat(settings.apiBase()).isEqualTo("https://api.stripe.com");
    assertThat(settings.toString()).contains("sk_test_").doesNotContain("51QxTestKeyNeverLogged");
    assertThatThrownBy(() -> StripeSettings.fromEnvironment(Map.of()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("STRIPE_API_KEY");
  }

  private List<LoggedRequest> chargeRequests() {
    return stripe.findAll(postRequestedFor(urlEqualTo("/v1/payment_intents")));
  }

  private static GatewayChargeRequest request() {
    return new GatewayChargeRequest(
        KEY,
        PRICE,
        StripeJson.TOKEN,
        "pro-monthly, cycle 3",
        Map.of(GatewayChargeRequest.SUBSCRIPTION_ID, "sub-1", GatewayChargeRequest.CYCLE, "3"));
  }
}
