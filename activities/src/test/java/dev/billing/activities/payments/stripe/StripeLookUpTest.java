package dev.billing.activities.payments.stripe;

import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.billing.activities.payments.stripe.StripeJson.CREATED;
import static dev.billing.activities.payments.stripe.StripeJson.CREATED_AT;
import static dev.billing.activities.payments.stripe.StripeJson.INTENT;
import static dev.billing.activities.payments.stripe.StripeJson.KEY;
import static dev.billing.activities.payments.stripe.StripeJson.OURS;
import static dev.billing.activities.payments.stripe.StripeJson.PRICE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.activities.payments.ChargeQuery;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayChargeState.Status;
import dev.billing.domain.ChargeRefund;
import dev.billing.domain.Money;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * StripeGateway.lookUp against a WireMock Stripe whose list endpoint filters as Stripe's does
 * ({@link StripeListFilter}): an exact read, by creation time and customer, never the lagging
 * Search API.
 */
class StripeLookUpTest extends StripeStubTest {
  /** The attempt started half a minute after the intent's creation at Stripe (clock skew). */
  private static final Instant SENT_FROM = CREATED_AT.plusSeconds(30);

  private static final long LISTED_FROM = CREATED + 30 - StripeGateway.CLOCK_SLACK.toSeconds();

  @Test
  void looksUpByTheKeyInTheMetadataAmongTheCustomersIntentsSinceTheKeyWasSent() {
    account(
        StripeJson.paymentIntent(
            "pi_3QxOtherKey01", "succeeded", 999, CREATED + 5, "charge:sub-2:1:1", null, null),
        StripeJson.paymentIntent(
            INTENT,
            "succeeded",
            999,
            CREATED,
            KEY,
            null,
            StripeJson.withRefunds(
                StripeJson.charge("ch_3QxTestCharge01", INTENT, 999, 300, false, CREATED, OURS),
                false,
                StripeJson.dashboardRefund("re_3QxTestDash01", INTENT, 300, CREATED + 60))));

    GatewayChargeState state = gateway.lookUp(new ChargeQuery(KEY, StripeJson.TOKEN, SENT_FROM));

    assertThat(state)
        .isEqualTo(
            new GatewayChargeState(
                Status.SUCCEEDED,
                KEY,
                INTENT,
                PRICE,
                new Money(300, "USD"),
                "sub-1",
                3L,
                CREATED_AT,
                null,
                null,
                null,
                null,
                List.of(
                    new ChargeRefund(
                        "re_3QxTestDash01",
                        new Money(300, "USD"),
                        null,
                        CREATED_AT.plusSeconds(60)))));
    stripe.verify(
        getRequestedFor(urlPathEqualTo("/v1/payment_intents"))
            .withQueryParam("created[gte]", equalTo(Long.toString(LISTED_FROM)))
            .withQueryParam("customer", equalTo(StripeJson.CUSTOMER))
            .withQueryParam("expand[0]", equalTo("data.latest_charge"))
            .withQueryParam("expand[1]", equalTo("data.latest_charge.refunds"))
            .withQueryParam("limit", equalTo("100")));
    stripe.verify(0, getRequestedFor(urlPathEqualTo("/v1/payment_intents/search")));
  }

  @Test
  void aChargeCreatedThisSecondIsFound() {
    long now = Instant.now().getEpochSecond();
    account(StripeJson.paymentIntent(INTENT, "processing", 999, now, KEY, null, null));

    GatewayChargeState state =
        gateway.lookUp(new ChargeQuery(KEY, StripeJson.TOKEN, Instant.ofEpochSecond(now)));

    assertThat(state.status()).isEqualTo(Status.PENDING);
    assertThat(state.transactionId()).isEqualTo(INTENT);
  }

  @Test
  void anIntentWithTheKeyCreatedBeforeItWasSentIsNotTheAnswer() {
    // A key reused after Stripe forgot it: the day-old intent is another request's.
    account(
        StripeJson.paymentIntent(
            "pi_3QxYesterday01", "succeeded", 999, CREATED - 86_400, KEY, null, null));

    assertThat(gateway.lookUp(new ChargeQuery(KEY, StripeJson.TOKEN, SENT_FROM)))
        .isEqualTo(GatewayChargeState.notFound(KEY));
  }

  @Test
  void readsEveryPage() {
    stripe.stubFor(
        get(urlPathEqualTo("/v1/payment_intents"))
            .withQueryParam("starting_after", absent())
            .willReturn(
                ok(StripeJson.list(
                        "/v1/payment_intents",
                        true,
                        StripeJson.paymentIntent(
                            "pi_3QxOtherKey02",
                            "succeeded",
                            999,
                            CREATED + 9,
                            "charge:sub-2:1:1",
                            null,
                            null),
                        StripeJson.paymentIntent(
                            "pi_3QxOtherKey01",
                            "succeeded",
                            999,
                            CREATED + 8,
                            "charge:sub-3:1:1",
                            null,
                            null)))
                    .withTransformers(StripeListFilter.NAME)));
    stripe.stubFor(
        get(urlPathEqualTo("/v1/payment_intents"))
            .withQueryParam("starting_after", equalTo("pi_3QxOtherKey01"))
            .willReturn(
                ok(StripeJson.list(
                        "/v1/payment_intents",
                        false,
                        StripeJson.paymentIntent(
                            INTENT, "succeeded", 999, CREATED, KEY, null, null)))
                    .withTransformers(StripeListFilter.NAME)));

    GatewayChargeState state = gateway.lookUp(new ChargeQuery(KEY, StripeJson.TOKEN, SENT_FROM));

    assertThat(state.transactionId()).isEqualTo(INTENT);
    stripe.verify(2, getRequestedFor(urlPathEqualTo("/v1/payment_intents")));
  }

  @Test
  void ofSeveralIntentsWithTheKeyTheOneThatMovedMoneyWins() {
    account(
        StripeJson.paymentIntent(
            "pi_3QxLaterFail01", "canceled", 999, CREATED + 20, KEY, null, null),
        StripeJson.paymentIntent(INTENT, "succeeded", 999, CREATED, KEY, null, null));

    assertThat(gateway.lookUp(new ChargeQuery(KEY, StripeJson.TOKEN, SENT_FROM)).transactionId())
        .isEqualTo(INTENT);
  }

  @Test
  void ofSeveralFailedIntentsWithTheKeyTheNewestWins() {
    account(
        StripeJson.paymentIntent(
            "pi_3QxLaterFail01", "canceled", 999, CREATED + 20, KEY, null, null),
        StripeJson.declinedIntent("insufficient_funds"));

    assertThat(gateway.lookUp(new ChargeQuery(KEY, StripeJson.TOKEN, SENT_FROM)).transactionId())
        .isEqualTo("pi_3QxLaterFail01");
  }

  @Test
  void aBarePaymentMethodTokenListsWithoutACustomer() {
    account(StripeJson.intent("succeeded"));

    gateway.lookUp(new ChargeQuery(KEY, "pm_card_visa", SENT_FROM));
    gateway.lookUp(new ChargeQuery(KEY, null, SENT_FROM));

    stripe.verify(
        2,
        getRequestedFor(urlPathEqualTo("/v1/payment_intents"))
            .withQueryParam("customer", absent()));
  }

  @Test
  void looksUpADisputedBankDebitAsReturned() {
    account(
        StripeJson.paymentIntent(
            INTENT,
            "succeeded",
            999,
            CREATED,
            KEY,
            null,
            StripeJson.charge(
                "py_3QxTestDebit01", INTENT, 999, 0, true, CREATED, OURS, "us_bank_account")));

    assertThat(gateway.lookUp(new ChargeQuery(KEY, StripeJson.TOKEN, SENT_FROM)))
        .extracting(GatewayChargeState::status, GatewayChargeState::failureCode)
        .containsExactly(Status.RETURNED, "disputed");
  }

  @Test
  void aDisputedCardChargeIsStillPaidForBilling() {
    // A chargeback is handled as a dispute, not dunned as a returned debit, until it is lost.
    stripe.stubFor(
        get(urlPathEqualTo("/v1/disputes"))
            .withQueryParam("charge", equalTo("ch_3QxTestCharge01"))
            .willReturn(
                ok(
                    StripeJson.list(
                        "/v1/disputes",
                        false,
                        StripeJson.cardDispute(
                            "du_3QxTestDispute01",
                            "ch_3QxTestCharge01",
                            INTENT,
                            999,
                            CREATED + 600,
                            "fraudulent",
                            "under_review")))));
    account(
        StripeJson.paymentIntent(
            INTENT,
            "succeeded",
            999,
            CREATED,
            KEY,
            null,
            StripeJson.charge("ch_3QxTestCharge01", INTENT, 999, 0, true, CREATED, OURS, "card")));

    assertThat(gateway.lookUp(new ChargeQuery(KEY, StripeJson.TOKEN, SENT_FROM)).status())
        .isEqualTo(Status.SUCCEEDED);
  }

  @Test
  void looksUpAFailedAttemptWithItsDeclineCode() {
    account(StripeJson.declinedIntent("insufficient_funds"));

    GatewayChargeState state = gateway.lookUp(new ChargeQuery(KEY, StripeJson.TOKEN, SENT_FROM));

    assertThat(state)
        .isEqualTo(
            new GatewayChargeState(
                Status.FAILED,
                KEY,
                INTENT,
                PRICE,
                Money.zero("USD"),
                "sub-1",
                3L,
                CREATED_AT,
                null,
                null,
                "insufficient_funds",
                "Your card was declined."));
  }

  @Test
  void aKeyStripeHasNoIntentForIsNotFound() {
    account();

    assertThat(gateway.lookUp(new ChargeQuery(KEY, StripeJson.TOKEN, SENT_FROM)))
        .isEqualTo(GatewayChargeState.notFound(KEY));
  }

  /** Every PaymentIntent of the account, newest first; one page. */
  private void account(String... intents) {
    stripe.stubFor(
        get(urlPathEqualTo("/v1/payment_intents"))
            .willReturn(
                ok(StripeJson.list("/v1/payment_intents", false, intents))
                    .withTransformers(StripeListFilter.NAME)));
  }
}
