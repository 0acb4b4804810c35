package dev.billing.activities.payments.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * The checker every WireMock test runs after itself ({@link StripeStubTest}) rejects what Stripe
 * would never send or take.
 */
class StripeOpenApiTest {
  private static final StripeOpenApi STRIPE = StripeOpenApi.DESCRIPTION;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The dispute stub these tests used to answer for a returned ACH debit. */
  private static final String INVENTED_BANK_DEBIT_DISPUTE =
      """
      {"id": "du_3QxTestDispute01", "object": "dispute", "amount": 999,
       "balance_transactions": [], "charge": "ch_3QxTestCharge01", "created": 1770181220,
       "currency": "usd",
       "evidence_details": {"due_by": null, "has_evidence": false, "past_due": false,
           "submission_count": 0},
       "is_charge_refundable": false, "livemode": false, "metadata": {},
       "payment_intent": "pi_3QxTestIntent01",
       "payment_method_details": {"type": "us_bank_account"},
       "reason": "debit_not_authorized", "status": "lost"}
      """;

  @Test
  void theCopyNamesTheApiVersionItWasTakenAt() {
    assertThat(STRIPE.version()).isEqualTo("2023-08-16");
  }

  @Test
  void theOldBankDebitDisputeStubIsNotSomethingStripeSends() throws Exception {
    assertThat(STRIPE.validateObject("dispute", JSON.readTree(INVENTED_BANK_DEBIT_DISPUTE)))
        .anySatisfy(v -> assertThat(v).contains("payment_method_details.type"))
        .anySatisfy(v -> assertThat(v).contains("evidence"));
  }

  @Test
  void theDisputeStubsNowUsedAreValid() throws Exception {
    assertThat(
            STRIPE.validateObject(
                "dispute",
                json(
                    StripeJson.dispute(
                        "du_1", "py_1", "pi_1", 999, 1770181220L, "debit_not_authorized"))))
        .isEmpty();
    assertThat(
            STRIPE.validateObject(
                "dispute",
                json(
                    StripeJson.cardDispute(
                        "du_2", "ch_2", "pi_2", 999, 1770181220L, "fraudulent"))))
        .isEmpty();
  }

  @Test
  void anEventsObjectIsCheckedAgainstItsOwnSchema() {
    String event =
        StripeJson.event(
            "evt_1",
            "charge.dispute.created",
            1770181220L,
            "2026-07-29",
            INVENTED_BANK_DEBIT_DISPUTE);

    assertThat(
            STRIPE.validateResponse(
                "GET", "/v1/events", 200, StripeJson.list("/v1/events", false, event)))
        .anySatisfy(v -> assertThat(v).startsWith("event evt_1 data.object"));
  }

  @Test
  void aResponseMissingWhatStripeAlwaysSendsIsRejected() {
    String noStatus = StripeJson.intent("succeeded").replace("\"status\": \"succeeded\",", "");

    assertThat(STRIPE.validateResponse("POST", "/v1/payment_intents", 200, noStatus))
        .anySatisfy(v -> assertThat(v).contains("status"));
  }

  @Test
  void anErrorOfATypeStripeDoesNotHaveIsRejected() {
    assertThat(
            STRIPE.validateResponse(
                "POST",
                "/v1/refunds",
                400,
                "{\"error\": {\"message\": \"no\", \"type\": \"refund_error\"}}"))
        .anySatisfy(v -> assertThat(v).contains("type"));
  }

  @Test
  void requestParametersStripeDoesNotTakeAreRejected() {
    assertThat(
            STRIPE.validateRequest(
                "POST", "/v1/payment_intents", null, "amount=999&currency=usd&idempotency_key=k"))
        .anySatisfy(v -> assertThat(v).contains("idempotency_key"));
    assertThat(
            STRIPE.validateRequest("POST", "/v1/payment_intents", null, "amount=9.99&currency=usd"))
        .isNotEmpty();
    assertThat(
            STRIPE.validateRequest(
                "POST", "/v1/refunds", null, "payment_intent=pi_1&reason=customer_asked"))
        .anySatisfy(v -> assertThat(v).contains("reason"));
    assertThat(
            STRIPE.validateRequest(
                "GET", "/v1/payment_intents", "created%5Bgte%5D=1&limit=ten", null))
        .anySatisfy(v -> assertThat(v).contains("limit"));
    assertThat(STRIPE.validateRequest("GET", "/v1/payment_intents", "metadata%5Bk%5D=v", null))
        .anySatisfy(v -> assertThat(v).contains("unknown query parameter metadata"));
  }

  @Test
  void theAdaptersOwnRequestShapesAreValid() {
    assertThat(
            STRIPE.validateRequest(
                "POST",
                "/v1/payment_intents",
                null,
                "amount=999&currency=usd&payment_method=pm_1&off_session=true&confirm=true"
                    + "&automatic_payment_methods%5Benabled%5D=true"
                    + "&automatic_payment_methods%5Ballow_redirects%5D=never&metadata%5Bcycle%5D=3"))
        .isEmpty();
    assertThat(
            STRIPE.validateRequest(
                "GET",
                "/v1/payment_intents",
                "created%5Bgte%5D=1770180930&customer=cus_1&expand%5B0%5D=data.latest_charge&limit=100",
                null))
        .isEmpty();
  }

  @Test
  void anOperationOutsideTheTrimmedDescriptionIsRejected() {
    assertThat(STRIPE.validateRequest("DELETE", "/v1/payment_intents", null, null))
        .containsExactly("DELETE /v1/payment_intents: no such operation in the description");
  }

  private static JsonNode json(String text) throws Exception {
    return JSON.readTree(text);
  }
}
