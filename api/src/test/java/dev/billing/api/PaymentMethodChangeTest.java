package dev.billing.api;

import static dev.billing.api.support.ApiTestSupport.assertInvalidField;
import static dev.billing.api.support.ApiTestSupport.assertProblem;
import static dev.billing.api.support.ApiTestSupport.body;
import static dev.billing.api.support.ApiTestSupport.newAccount;
import static dev.billing.api.support.ApiTestSupport.subscriptionBody;
import static dev.billing.api.support.ApiTestSupport.subscriptionPath;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.support.ApiTestSupport;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** PUT .../payment-method: token and mask only, recorded in the history, refused once cancelled. */
@Tag("e2e")
class PaymentMethodChangeTest {

  static final ApiTestSupport API = ApiTestSupport.shared();

  private static Response put(String path, String json) {
    return API.request(path).put(Entity.entity(json, MediaType.APPLICATION_JSON_TYPE));
  }

  @Test
  void replacesTheTokenAndMaskAndRecordsItInTheHistory() {
    String account = newAccount();
    String id = API.created(account, subscriptionBody()).get("subscriptionId").asText();

    Response response =
        put(
            subscriptionPath(account, id) + "/payment-method",
            "{\"paymentMethod\":\"pm_card_mastercard\"}");

    assertThat(response.getStatus()).isEqualTo(200);
    JsonNode changed = body(response);
    assertThat(changed.get("paymentMethod").get("mask").asText()).isEqualTo("Mastercard •••• 4444");
    assertThat(changed.get("version").asLong()).isEqualTo(2);
    List<String> events = new ArrayList<>();
    body(API.get(subscriptionPath(account, id) + "/history"))
        .get("items")
        .forEach(e -> events.add(e.get("event").asText() + " " + e.get("process").asText()));
    assertThat(events).containsExactly("SUBSCRIPTION_CREATED API", "PAYMENT_METHOD_CHANGED API");
    assertThat(API.stack().store.getSubscription(account, id).orElseThrow().paymentMethod().token())
        .isEqualTo("pm_card_mastercard");
  }

  @Test
  void acceptsAStripeCustomerAndPaymentMethod() {
    String account = newAccount();
    String id = API.created(account, subscriptionBody()).get("subscriptionId").asText();

    Response response =
        put(
            subscriptionPath(account, id) + "/payment-method",
            "{\"paymentMethod\":\"cus_NffrFeUfNV2Hib/pm_1NffrFeUfNV2Hib\"}");

    assertThat(response.getStatus()).isEqualTo(200);
    assertThat(body(response).get("paymentMethod").get("mask").asText()).isEqualTo("Card");
  }

  @Test
  void aCardNumberIsRefusedAndChangesNothing() {
    String account = newAccount();
    String id = API.created(account, subscriptionBody()).get("subscriptionId").asText();

    String message =
        assertInvalidField(
            put(
                subscriptionPath(account, id) + "/payment-method",
                "{\"paymentMethod\":\"4242 4242 4242 4242\"}"),
            "paymentMethod");

    assertThat(message).contains("never carry a card");
    assertThat(API.stack().store.getSubscription(account, id).orElseThrow().version()).isEqualTo(1);
  }

  @Test
  void aMissingTokenIsA400AndAnUnknownSubscriptionA404() {
    String account = newAccount();
    assertInvalidField(
        put(subscriptionPath(account, "sub_nothere") + "/payment-method", "{}"), "paymentMethod");
    assertProblem(
        put(
            subscriptionPath(account, "sub_nothere") + "/payment-method",
            "{\"paymentMethod\":\"pm_card_visa\"}"),
        404);
  }

  @Test
  void aCancelledSubscriptionKeepsItsPaymentMethod() {
    String account = newAccount();
    String id = API.created(account, subscriptionBody()).get("subscriptionId").asText();
    assertThat(API.postJson(subscriptionPath(account, id) + "/cancel", "{}", null).getStatus())
        .isEqualTo(200);

    JsonNode problem =
        assertProblem(
            put(
                subscriptionPath(account, id) + "/payment-method",
                "{\"paymentMethod\":\"pm_card_mastercard\"}"),
            409);

    assertThat(problem.get("detail").asText()).endsWith("cannot be changed.");
  }
}
