package dev.billing.activities.payments.stripe;

import dev.billing.activities.payments.ChargeQuery;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
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
import dev.billing.activities.payments.GatewayRefund;
import dev.billing.activities.payments.GatewayUnavailableException;
import dev.billing.activities.payments.InvalidGatewayRequestException;
import dev.billing.activities.payments.PaymentDeclinedException;
import dev.billing.activities.payments.RefundRequest;
import dev.billing.domain.Money;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** StripeGateway against a WireMock stub that answers with Stripe's JSON shapes and headers. */
class StripeGatewayTest {
  private static final String API_KEY = "sk_test_51QxTestKeyNeverLogged";
  private static final String KEY = "charge:sub-1:3:1";
  private static final String INTENT = "pi_3QxTestIntent01";
  private static final long CREATED = 1770181200L; // 2026-02-04T05:00:00Z
  private static final Instant CREATED_AT = Instant.parse("2026-02-04T05:00:00Z");
  private static final Money PRICE = new Money(999, "USD");
  private static final String OURS =
      "{\"cycle\": \"3\", \"idempotencyKey\": \"" + KEY + "\", \"subscriptionId\": \"sub-1\"}";

  private WireMockServer stripe;
  private StripeGateway gateway;

  @BeforeEach
  void start() {
    stripe = new WireMockServer(options().dynamicPort());
    stripe.start();
    gateway = new StripeGateway(settings());
  }

  @AfterEach
  void stop() {
    stripe.stop();
  }

  @Test
  void chargesOffSessionConfirmedWithTheKeyAndOurMetadata() {
    stripe.stubFor(post(urlEqualTo("/v1/payment_intents"))
        .willReturn(ok(intent("succeeded"))));

    GatewayCharge charge = gateway.charge(request());

    assertThat(charge).isEqualTo(new GatewayCharge(INTENT, CREATED_AT, false, false));
    stripe.verify(1, postRequestedFor(urlEqualTo("/v1/payment_intents"))
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
    stripe.stubFor(post(urlEqualTo("/v1/payment_intents")).willReturn(json(402,
        StripeJson.cardError("card_declined", "generic_decline", null, "Your card was declined.",
            declinedIntent("generic_decline")))));

    assertThatThrownBy(() -> gateway.charge(request()))
        .isInstanceOfSatisfying(PaymentDeclinedException.class, e -> {
          assertThat(e.code()).isEqualTo("generic_decline");
          assertThat(e.getMessage()).isEqualTo("Your card was declined.");
          assertThat(e.kind()).isEqualTo(DeclineKind.HARD);
        });
  }

  @Test
  void insufficientFundsIsASoftDecline() {
    stripe.stubFor(post(urlEqualTo("/v1/payment_intents")).willReturn(json(402,
        StripeJson.cardError("card_declined", "insufficient_funds", "try_again_later",
            "Your card has insufficient funds.", declinedIntent("insufficient_funds")))));

    assertThatThrownBy(() -> gateway.charge(request()))
        .isInstanceOfSatisfying(PaymentDeclinedException.class, e -> {
          assertThat(e.code()).isEqualTo("insufficient_funds");
          assertThat(e.getMessage()).isEqualTo("Your card has insufficient funds.");
          assertThat(e.kind()).isEqualTo(DeclineKind.SOFT);
        });
  }

  @Test
  void theIssuersDoNotTryAgainAdviceMakesAnyDeclineHard() {
    stripe.stubFor(post(urlEqualTo("/v1/payment_intents")).willReturn(json(402,
        StripeJson.cardError("card_declined", "do_not_honor", "do_not_try_again",
            "Your card was declined.", declinedIntent("do_not_honor")))));

    assertThatThrownBy(() -> gateway.charge(request()))
        .isInstanceOfSatisfying(PaymentDeclinedException.class, e -> {
          assertThat(e.code()).isEqualTo("do_not_honor");
          assertThat(e.kind()).isEqualTo(DeclineKind.HARD);
        });
  }

  @Test
  void anExpiredCardWithoutDeclineCodeIsHardByItsErrorCode() {
    stripe.stubFor(post(urlEqualTo("/v1/payment_intents")).willReturn(json(402,
        StripeJson.cardError("expired_card", null, null, "Your card has expired.",
            declinedIntent("expired_card")))));

    assertThatThrownBy(() -> gateway.charge(request()))
        .isInstanceOfSatisfying(PaymentDeclinedException.class, e -> {
          assertThat(e.code()).isEqualTo("expired_card");
          assertThat(e.kind()).isEqualTo(DeclineKind.HARD);
        });
  }

  @Test
  void aServerErrorIsUnavailableAndTheRetryWithTheSameKeySucceeds() {
    stripe.stubFor(post(urlEqualTo("/v1/payment_intents")).inScenario("500 then 200")
        .whenScenarioStateIs(Scenario.STARTED)
        .willReturn(json(500, StripeJson.apiError("An unknown error occurred")))
        .willSetStateTo("recovered"));
    stripe.stubFor(post(urlEqualTo("/v1/payment_intents")).inScenario("500 then 200")
        .whenScenarioStateIs("recovered")
        .willReturn(ok(intent("succeeded"))));

    assertThatThrownBy(() -> gateway.charge(request()))
        .isInstanceOfSatisfying(GatewayUnavailableException.class, e -> assertThat(e.getMessage())
            .contains("HTTP 500").contains("An unknown error occurred").contains(KEY));
    GatewayCharge retried = gateway.charge(request());

    assertThat(retried).isEqualTo(new GatewayCharge(INTENT, CREATED_AT, false, false));
    assertThat(chargeRequests()).hasSize(2)
        .extracting(r -> r.getHeader("Idempotency-Key"))
        .containsExactly(KEY, KEY);
  }

  @Test
  void stripeJavasOwnRetriesCarryTheSameKey() {
    gateway = new StripeGateway(settings().withMaxNetworkRetries(1));
    stripe.stubFor(post(urlEqualTo("/v1/payment_intents")).inScenario("503 then 200")
        .whenScenarioStateIs(Scenario.STARTED)
        .willReturn(json(503, StripeJson.apiError("Service unavailable"))
            .withHeader("Stripe-Should-Retry", "true"))
        .willSetStateTo("recovered"));
    stripe.stubFor(post(urlEqualTo("/v1/payment_intents")).inScenario("503 then 200")
        .whenScenarioStateIs("recovered")
        .willReturn(ok(intent("succeeded"))));

    GatewayCharge charge = gateway.charge(request());

    assertThat(charge.transactionId()).isEqualTo(INTENT);
    assertThat(chargeRequests()).extracting(r -> r.getHeader("Idempotency-Key"))
        .containsExactly(KEY, KEY);
  }

  @Test
  void aTimeoutIsUnavailable() {
    stripe.stubFor(post(urlEqualTo("/v1/payment_intents"))
        .willReturn(ok(intent("succeeded")).withFixedDelay(3_000)));
    StripeGateway impatient = new StripeGateway(settings().withTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(1)));

    assertThatThrownBy(() -> impatient.charge(request()))
        .isInstanceOfSatisfying(GatewayUnavailableException.class, e -> {
          assertThat(e.getCause()).isInstanceOf(ApiConnectionException.class);
          assertThat(e.getMessage()).contains("timed out");
        });
    // One request: neither stripe-java (0 network retries) nor HttpURLConnection resent the POST.
    assertThat(chargeRequests()).extracting(r -> r.getHeader("Idempotency-Key"))
        .containsExactly(KEY);
  }

  @Test
  void rateLimitingIsUnavailable() {
    stripe.stubFor(post(urlEqualTo("/v1/payment_intents")).willReturn(json(429,
        "{\"error\": {\"code\": \"rate_limit\", \"message\": \"Too many requests hit the API too"
            + " quickly.\", \"type\": \"invalid_request_error\"}}")));

    assertThatThrownBy(() -> gateway.charge(request()))
        .isInstanceOf(GatewayUnavailableException.class);
  }

  @Test
  void anIdempotentReplayIsMarkedReplayed() {
    stripe.stubFor(post(urlEqualTo("/v1/payment_intents"))
        .willReturn(ok(intent("succeeded")).withHeader("Idempotent-Replayed", "true")));

    GatewayCharge charge = gateway.charge(request());

    assertThat(charge).isEqualTo(new GatewayCharge(INTENT, CREATED_AT, true, false));
  }

  @Test
  void aProcessingIntentIsPending() {
    stripe.stubFor(post(urlEqualTo("/v1/payment_intents"))
        .willReturn(ok(intent("processing"))));

    GatewayCharge charge = gateway.charge(request());

    assertThat(charge).isEqualTo(new GatewayCharge(INTENT, CREATED_AT, false, true));
  }

  @Test
  void aMissingPaymentMethodIsAHardDeclineThatDoesNotEchoTheToken() {
    stripe.stubFor(post(urlEqualTo("/v1/payment_intents")).willReturn(json(400,
        StripeJson.invalidRequest("resource_missing", "payment_method",
            "No such PaymentMethod: '" + StripeJson.PAYMENT_METHOD + "'"))));

    assertThatThrownBy(() -> gateway.charge(request()))
        .isInstanceOfSatisfying(PaymentDeclinedException.class, e -> {
          assertThat(e.code()).isEqualTo("invalid_payment_method");
          assertThat(e.kind()).isEqualTo(DeclineKind.HARD);
          assertThat(e.getMessage()).doesNotContain(StripeJson.PAYMENT_METHOD);
        });
  }

  @Test
  void otherInvalidRequestsRedactTheTokenFromStripesMessage() {
    stripe.stubFor(post(urlEqualTo("/v1/payment_intents")).willReturn(json(400,
        StripeJson.invalidRequest("payment_method_unexpected_state", "payment_method",
            "The PaymentMethod " + StripeJson.PAYMENT_METHOD + " is detached."))));

    assertThatThrownBy(() -> gateway.charge(request()))
        .isInstanceOfSatisfying(InvalidGatewayRequestException.class, e -> {
          assertThat(e.code()).isEqualTo("payment_method_unexpected_state");
          assertThat(e.getMessage()).contains("The PaymentMethod [redacted] is detached.")
              .doesNotContain(StripeJson.PAYMENT_METHOD);
        });
  }

  @Test
  void aKeyReusedWithOtherParametersIsAnInvalidRequest() {
    stripe.stubFor(post(urlEqualTo("/v1/payment_intents")).willReturn(json(400,
        "{\"error\": {\"message\": \"Keys for idempotent requests can only be used with the same"
            + " parameters they were first used with.\", \"type\": \"idempotency_error\"}}")));

    assertThatThrownBy(() -> gateway.charge(request()))
        .isInstanceOfSatisfying(InvalidGatewayRequestException.class,
            e -> assertThat(e.code()).isEqualTo("idempotency_key_reused"));
  }

  @Test
  void aRefusedApiKeyIsUnavailableAndNeverEchoed() {
    stripe.stubFor(post(urlEqualTo("/v1/payment_intents")).willReturn(json(401,
        "{\"error\": {\"message\": \"Invalid API Key provided: sk_test_****gged\","
            + " \"type\": \"invalid_request_error\"}}")));

    assertThatThrownBy(() -> gateway.charge(request()))
        .isInstanceOfSatisfying(GatewayUnavailableException.class, e -> assertThat(e.getMessage())
            .contains("STRIPE_API_KEY").doesNotContain(API_KEY));
  }

  @Test
  void refundsThePaymentIntentWithItsOwnKey() {
    stripe.stubFor(post(urlEqualTo("/v1/refunds")).willReturn(ok(
        StripeJson.refund("re_3QxTestRefund01", INTENT, 500, CREATED + 60, "refund:sub-1:3:1"))));

    GatewayRefund refund = gateway.refund(new RefundRequest("refund:sub-1:3:1", INTENT,
        new Money(500, "USD"), RefundRequest.Reason.REQUESTED_BY_CUSTOMER));

    assertThat(refund).isEqualTo(new GatewayRefund("re_3QxTestRefund01", new Money(500, "USD"),
        CREATED_AT.plusSeconds(60)));
    stripe.verify(1, postRequestedFor(urlEqualTo("/v1/refunds"))
        .withHeader("Idempotency-Key", equalTo("refund:sub-1:3:1"))
        .withFormParam("payment_intent", equalTo(INTENT))
        .withFormParam("amount", equalTo("500"))
        .withFormParam("reason", equalTo("requested_by_customer"))
        .withFormParam("metadata[idempotencyKey]", equalTo("refund:sub-1:3:1")));
  }

  @Test
  void aRefundLargerThanWhatIsLeftIsAnInvalidRequest() {
    stripe.stubFor(post(urlEqualTo("/v1/refunds")).willReturn(json(400,
        StripeJson.invalidRequest("amount_too_large", "amount",
            "Refund amount ($10.00) is greater than unrefunded amount on charge ($9.99)"))));

    assertThatThrownBy(() -> gateway.refund(new RefundRequest("refund:sub-1:3:1", INTENT,
        new Money(1000, "USD"), null)))
        .isInstanceOfSatisfying(InvalidGatewayRequestException.class,
            e -> assertThat(e.code()).isEqualTo("amount_too_large"));
  }

  @Test
  void looksUpByTheKeyInTheMetadata() {
    stripe.stubFor(get(urlPathEqualTo("/v1/payment_intents/search"))
        .withQueryParam("query", equalTo("metadata['idempotencyKey']:'" + KEY + "'"))
        .willReturn(ok(StripeJson.searchResult(StripeJson.paymentIntent(INTENT, "succeeded", 999,
            CREATED, KEY, null,
            StripeJson.charge("ch_3QxTestCharge01", INTENT, 999, 300, false, CREATED, OURS))))));

    GatewayChargeState state = gateway.lookUp(new ChargeQuery(KEY, null, java.time.Instant.EPOCH));

    assertThat(state).isEqualTo(new GatewayChargeState(Status.SUCCEEDED, KEY, INTENT, PRICE,
        new Money(300, "USD"), "sub-1", 3L, CREATED_AT, null, null, null, null));
    stripe.verify(getRequestedFor(urlPathEqualTo("/v1/payment_intents/search"))
        .withQueryParam("expand[0]", equalTo("data.latest_charge")));
  }

  @Test
  void looksUpADisputedBankDebitAsReturned() {
    stripe.stubFor(get(urlPathEqualTo("/v1/payment_intents/search"))
        .willReturn(ok(StripeJson.searchResult(StripeJson.paymentIntent(INTENT, "succeeded", 999,
            CREATED, KEY, null,
            StripeJson.charge("py_3QxTestDebit01", INTENT, 999, 0, true, CREATED, OURS, "us_bank_account"))))));

    assertThat(gateway.lookUp(new ChargeQuery(KEY, null, java.time.Instant.EPOCH))).extracting(GatewayChargeState::status,
            GatewayChargeState::failureCode)
        .containsExactly(Status.RETURNED, "disputed");
  }

  @Test
  void aDisputedCardChargeIsStillPaidForBilling() {
    // A chargeback is handled as a dispute, not dunned as a returned debit.
    stripe.stubFor(get(urlPathEqualTo("/v1/payment_intents/search"))
        .willReturn(ok(StripeJson.searchResult(StripeJson.paymentIntent(INTENT, "succeeded", 999,
            CREATED, KEY, null,
            StripeJson.charge("ch_3QxTestCharge01", INTENT, 999, 0, true, CREATED, OURS, "card"))))));

    assertThat(gateway.lookUp(new ChargeQuery(KEY, null, java.time.Instant.EPOCH)).status()).isEqualTo(Status.SUCCEEDED);
  }

  @Test
  void looksUpAFailedAttemptWithItsDeclineCode() {
    stripe.stubFor(get(urlPathEqualTo("/v1/payment_intents/search"))
        .willReturn(ok(StripeJson.searchResult(declinedIntent("insufficient_funds")))));

    GatewayChargeState state = gateway.lookUp(new ChargeQuery(KEY, null, java.time.Instant.EPOCH));

    assertThat(state).isEqualTo(new GatewayChargeState(Status.FAILED, KEY, INTENT, PRICE,
        Money.zero("USD"), "sub-1", 3L, CREATED_AT, null, null, "insufficient_funds",
        "Your card was declined."));
  }

  @Test
  void aKeyStripeHasNoIntentForIsNotFound() {
    stripe.stubFor(get(urlPathEqualTo("/v1/payment_intents/search"))
        .willReturn(ok(StripeJson.searchResult())));

    assertThat(gateway.lookUp(new ChargeQuery(KEY, null, java.time.Instant.EPOCH))).isEqualTo(GatewayChargeState.notFound(KEY));
  }

  @Test
  void listsEventsAcrossPagesOldestFirstAndMapsThemToOurCharges() {
    long t = CREATED;
    String page1 = StripeJson.list("/v1/events", true,
        StripeJson.event("evt_4", "payment_intent.succeeded", t + 40, Stripe.API_VERSION,
            StripeJson.paymentIntent(INTENT, "succeeded", 999, t, KEY, null, null)),
        StripeJson.event("evt_3", "payment_intent.payment_failed", t + 30, Stripe.API_VERSION,
            declinedIntent("insufficient_funds")));
    String foreignIntent = StripeJson.paymentIntent("pi_3QxForeign01", "succeeded", 500, t, KEY,
        null, null).replace("\"metadata\": {\"cycle\": \"3\", \"idempotencyKey\": \"" + KEY
        + "\", \"subscriptionId\": \"sub-1\"}", "\"metadata\": {}");
    String page2 = StripeJson.list("/v1/events", false,
        StripeJson.event("evt_2", "charge.refunded", t + 20, "2024-06-20",
            StripeJson.charge("ch_3QxTestCharge01", INTENT, 999, 999, false, t, "{}")),
        StripeJson.event("evt_1", "charge.dispute.created", t + 20, Stripe.API_VERSION,
            StripeJson.dispute("du_3QxTestDispute01", "ch_3QxTestCharge01", INTENT, 999, t + 20,
                "debit_not_authorized")),
        StripeJson.event("evt_0", "payment_intent.succeeded", t + 10, Stripe.API_VERSION,
            foreignIntent));
    stripe.stubFor(get(urlPathEqualTo("/v1/events"))
        .withQueryParam("starting_after", absent())
        .willReturn(ok(page1)));
    stripe.stubFor(get(urlPathEqualTo("/v1/events"))
        .withQueryParam("starting_after", equalTo("evt_3"))
        .willReturn(ok(page2)));
    stripe.stubFor(get(urlEqualTo("/v1/payment_intents/" + INTENT))
        .willReturn(ok(StripeJson.paymentIntent(INTENT, "succeeded", 999, t, KEY, null, null))));
    Instant from = CREATED_AT;
    Instant to = CREATED_AT.plusSeconds(3600);

    List<GatewayEvent> events = gateway.listEvents(from, to);

    Instant at = CREATED_AT;
    assertThat(events).containsExactly(
        new GatewayEvent("evt_1", Type.RETURNED, at.plusSeconds(20), KEY, INTENT, "sub-1", 3, PRICE,
            "debit_not_authorized", "The charge was disputed (a bank debit: returned) by the"
                + " customer's bank: debit_not_authorized"),
        new GatewayEvent("evt_2", Type.REFUNDED, at.plusSeconds(20), KEY, INTENT, "sub-1", 3, PRICE,
            null, null),
        new GatewayEvent("evt_3", Type.FAILED, at.plusSeconds(30), KEY, INTENT, "sub-1", 3, PRICE,
            "insufficient_funds", "Your card was declined."),
        new GatewayEvent("evt_4", Type.SUCCEEDED, at.plusSeconds(40), KEY, INTENT, "sub-1", 3,
            PRICE, null, null));
    stripe.verify(2, getRequestedFor(urlPathEqualTo("/v1/events"))
        .withQueryParam("created[gte]", equalTo(Long.toString(CREATED)))
        .withQueryParam("created[lt]", equalTo(Long.toString(CREATED + 3600)))
        .withQueryParam("types[0]", equalTo("payment_intent.succeeded"))
        .withQueryParam("types[1]", equalTo("payment_intent.payment_failed"))
        .withQueryParam("types[2]", equalTo("charge.refunded"))
        .withQueryParam("types[3]", equalTo("charge.dispute.created"))
        .withQueryParam("limit", equalTo("100")));
  }

  @Test
  void aFailureFetchingALaterPageIsUnavailable() {
    stripe.stubFor(get(urlPathEqualTo("/v1/events"))
        .withQueryParam("starting_after", absent())
        .willReturn(ok(StripeJson.list("/v1/events", true,
            StripeJson.event("evt_4", "payment_intent.succeeded", CREATED, Stripe.API_VERSION,
                StripeJson.paymentIntent(INTENT, "succeeded", 999, CREATED, KEY, null, null))))));
    stripe.stubFor(get(urlPathEqualTo("/v1/events"))
        .withQueryParam("starting_after", equalTo("evt_4"))
        .willReturn(json(500, StripeJson.apiError("An unknown error occurred"))));

    assertThatThrownBy(() -> gateway.listEvents(CREATED_AT, CREATED_AT.plusSeconds(60)))
        .isInstanceOf(GatewayUnavailableException.class);
  }

  @Test
  void listsChargesOfTheWindowAsOfNow() {
    stripe.stubFor(get(urlPathEqualTo("/v1/payment_intents"))
        .willReturn(ok(StripeJson.list("/v1/payment_intents", false,
            StripeJson.paymentIntent("pi_3QxTestIntent02", "processing", 999, CREATED + 5,
                "charge:sub-1:3:2", null, null),
            StripeJson.paymentIntent(INTENT, "succeeded", 999, CREATED, KEY, null, null)))));

    List<GatewayChargeState> charges =
        gateway.listCharges(CREATED_AT, CREATED_AT.plusMillis(1500));

    assertThat(charges).extracting(GatewayChargeState::transactionId, GatewayChargeState::status)
        .containsExactly(
            tuple(INTENT, Status.SUCCEEDED),
            tuple("pi_3QxTestIntent02", Status.PENDING));
    // Stripe filters by whole seconds: the end is rounded up so nothing in the window is lost.
    stripe.verify(getRequestedFor(urlPathEqualTo("/v1/payment_intents"))
        .withQueryParam("created[gte]", equalTo(Long.toString(CREATED)))
        .withQueryParam("created[lt]", equalTo(Long.toString(CREATED + 2))));
  }

  @Test
  void settingsComeFromTheEnvironmentAndHideTheKey() {
    StripeSettings settings = StripeSettings.fromEnvironment(Map.of("STRIPE_API_KEY", API_KEY));

    assertThat(settings.apiKey()).isEqualTo(API_KEY);
    assertThat(settings.apiBase()).isEqualTo("https://api.stripe.com");
    assertThat(settings.toString()).contains("sk_test_").doesNotContain("51QxTestKeyNeverLogged");
    assertThatThrownBy(() -> StripeSettings.fromEnvironment(Map.of()))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("STRIPE_API_KEY");
  }

  /** Generous read timeout: a cold WireMock on a loaded CI machine can take over a second to answer. */
  private StripeSettings settings() {
    return StripeSettings.of(API_KEY)
        .withApiBase(stripe.baseUrl())
        .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(10));
  }

  private List<LoggedRequest> chargeRequests() {
    return stripe.findAll(postRequestedFor(urlEqualTo("/v1/payment_intents")));
  }

  private static GatewayChargeRequest request() {
    return new GatewayChargeRequest(KEY, PRICE, StripeJson.TOKEN, "pro-monthly, cycle 3",
        Map.of(GatewayChargeRequest.SUBSCRIPTION_ID, "sub-1", GatewayChargeRequest.CYCLE, "3"));
  }

  private static String intent(String status) {
    return StripeJson.paymentIntent(INTENT, status, 999, CREATED, KEY, null, null);
  }

  private static String declinedIntent(String declineCode) {
    String error = """
        {"charge": "ch_3QxTestDeclined01", "code": "card_declined", "decline_code": "%s",
         "doc_url": "https://stripe.com/docs/error-codes/card-declined",
         "message": "Your card was declined.", "type": "card_error"}
        """.formatted(declineCode);
    return StripeJson.paymentIntent(INTENT, "requires_payment_method", 999, CREATED, KEY, error,
        "\"ch_3QxTestDeclined01\"");
  }

  private static ResponseDefinitionBuilder ok(String body) {
    return json(200, body);
  }

  private static ResponseDefinitionBuilder json(int status, String body) {
    return aResponse()
        .withStatus(status)
        .withHeader("Content-Type", "application/json")
        .withHeader("Request-Id", "req_TestRequest0001")
        .withHeader("Stripe-Version", Stripe.API_VERSION)
        .withBody(body);
  }
}
