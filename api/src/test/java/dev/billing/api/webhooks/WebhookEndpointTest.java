package dev.billing.api.webhooks;

import static dev.billing.api.support.ApiRequests.assertInvalidField;
import static dev.billing.api.support.ApiRequests.assertProblem;
import static dev.billing.api.support.ApiRequests.body;
import static dev.billing.api.support.ApiRequests.newAccount;
import static dev.billing.api.support.ApiRequests.subscriptionBody;
import static dev.billing.api.webhooks.WebhookSigning.SANDBOX_SECRET;
import static dev.billing.api.webhooks.WebhookSigning.STRIPE_SECRET;
import static dev.billing.api.webhooks.WebhookSigning.header;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.support.ApiRequests;
import dev.billing.api.support.ResourceTestSupport;
import dev.billing.domain.PaymentEvent;
import dev.billing.store.PageRequest;
import dev.billing.store.events.StoredEvent;
import dev.billing.store.events.SubscriptionEvent;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.client.Invocation;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.glassfish.jersey.client.ClientProperties;
import org.glassfish.jersey.client.RequestEntityProcessing;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * POST /v1/webhooks/{provider} on the resources: the payment-events store on DynamoDB Local, and a
 * fake of the signal to the subscription's workflow (which refuses a subscription without a running
 * workflow, as Temporal does). That a delivery reaches the workflow itself is
 * WebhookToWorkflowTest's.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class WebhookEndpointTest {

  static final ResourceTestSupport API =
      ResourceTestSupport.start(
          config -> config.webhooks = new WebhookSettings(STRIPE_SECRET, SANDBOX_SECRET));

  @Test
  void aSignedSandboxEventIsStoredOnceAndSignalledToItsSubscription() {
    String subscriptionId = newSubscription();
    long created = now().getEpochSecond() - 2;
    String eventId = eventId("evt_sb_");
    String body =
        sandboxEvent(
            eventId,
            "charge.succeeded",
            created,
            subscriptionId,
            1,
            "\"failureCode\":null,\"failureMessage\":null");

    Response response =
        deliver("sandbox", "Sandbox-Signature", header(SANDBOX_SECRET, created, body), body);

    assertThat(response.getStatus()).isEqualTo(200);
    assertThat(body(response))
        .isEqualTo(ApiRequests.parse("{\"received\":true,\"duplicate\":false}"));
    StoredEvent stored = API.stack().paymentEvents.find("sandbox", eventId).orElseThrow();
    assertThat(stored.type()).isEqualTo("charge.succeeded");
    assertThat(stored.paymentEventType()).isEqualTo(PaymentEvent.Type.CHARGE_SUCCEEDED);
    assertThat(stored.subscriptionId()).isEqualTo(subscriptionId);
    assertThat(stored.cycle()).isEqualTo(1L);
    assertThat(stored.idempotencyKey()).isEqualTo("charge:" + subscriptionId + ":1:1");
    assertThat(stored.transactionId()).isEqualTo("ch_sb_" + eventId);
    assertThat(stored.occurredAt()).isEqualTo(Instant.ofEpochSecond(created));
    assertThat(stored.summary()).isEqualTo(Map.of("amount", "9.99", "currency", "USD"));
    assertThat(signals(subscriptionId))
        .containsExactly(
            new PaymentEvent(
                eventId,
                "sandbox",
                PaymentEvent.Type.CHARGE_SUCCEEDED,
                subscriptionId,
                1,
                "charge:" + subscriptionId + ":1:1",
                "ch_sb_" + eventId,
                null,
                null,
                Instant.ofEpochSecond(created)));
  }

  @Test
  void aDuplicateDeliveryIsAcknowledgedStoredOnceAndSignalledAgain() {
    String subscriptionId = newSubscription();
    long created = now().getEpochSecond();
    String eventId = eventId("evt_sb_");
    String body =
        sandboxEvent(
            eventId,
            "charge.failed",
            created,
            subscriptionId,
            1,
            "\"failureCode\":\"insufficient_funds\",\"failureMessage\":\"Insufficient funds\"");
    String signature = header(SANDBOX_SECRET, created, body);

    Response first = deliver("sandbox", "Sandbox-Signature", signature, body);
    Response second = deliver("sandbox", "Sandbox-Signature", signature, body);

    assertThat(body(first).get("duplicate").asBoolean()).isFalse();
    assertThat(second.getStatus()).isEqualTo(200);
    assertThat(body(second)).isEqualTo(ApiRequests.parse("{\"received\":true,\"duplicate\":true}"));
    assertThat(API.stack().paymentEvents.eventsOf(subscriptionId, PageRequest.first(10)).items())
        .extracting(SubscriptionEvent::eventId)
        .containsExactly(eventId);
    // The workflow, not the webhook, drops the second one: an earlier delivery may have stored the
    // event and then failed to signal.
    PaymentEvent failed =
        new PaymentEvent(
            eventId,
            "sandbox",
            PaymentEvent.Type.CHARGE_FAILED,
            subscriptionId,
            1,
            "charge:" + subscriptionId + ":1:1",
            "ch_sb_" + eventId,
            "insufficient_funds",
            "Insufficient funds",
            Instant.ofEpochSecond(created));
    assertThat(signals(subscriptionId)).containsExactly(failed, failed);
  }

  @Test
  void aBadSignatureIs401AndLeavesNoTrace() {
    String subscriptionId = newSubscription();
    long created = now().getEpochSecond();
    String eventId = eventId("evt_sb_");
    String body = sandboxEvent(eventId, "charge.succeeded", created, subscriptionId, 1, "");
    String tampered = body.replace("9.99", "0.01");

    assertUnauthorized(
        deliver("sandbox", "Sandbox-Signature", header(SANDBOX_SECRET, created, body), tampered));
    assertUnauthorized(
        deliver("sandbox", "Sandbox-Signature", header("whsec_someone_else", created, body), body));
    // Stripe's scheme, the sandbox's secret: a signature is only valid at its own endpoint.
    assertUnauthorized(
        deliver("stripe", "Stripe-Signature", header(SANDBOX_SECRET, created, body), body));

    assertThat(API.stack().paymentEvents.find("sandbox", eventId)).isEmpty();
    assertThat(API.stack().paymentEvents.find("stripe", eventId)).isEmpty();
    assertThat(signals(subscriptionId)).isEmpty();
  }

  @Test
  void aSignatureOlderOrNewerThanFiveMinutesIs401() {
    String subscriptionId = newSubscription();
    long now = now().getEpochSecond();
    String eventId = eventId("evt_sb_");
    String body = sandboxEvent(eventId, "charge.succeeded", now - 400, subscriptionId, 1, "");

    // Each timestamp is taken just before its delivery, and the clock only moves on: one second
    // past the tolerance is enough for an old one; a future one and one inside the tolerance keep a
    // minute of slack, as a loaded machine can take seconds between reading the time and checking.
    assertThat(
            assertUnauthorized(
                    deliver(
                        "sandbox",
                        "Sandbox-Signature",
                        header(SANDBOX_SECRET, now().getEpochSecond() - 301, body),
                        body))
                .get("detail")
                .asText())
        .isEqualTo("The signature's timestamp is more than 300 seconds from now.");
    assertUnauthorized(
        deliver(
            "sandbox",
            "Sandbox-Signature",
            header(SANDBOX_SECRET, now().getEpochSecond() + 360, body),
            body));

    assertThat(API.stack().paymentEvents.find("sandbox", eventId)).isEmpty();
    assertThat(signals(subscriptionId)).isEmpty();
    // Within the tolerance the same body is accepted: the 401s above were the timestamp's.
    assertThat(
            deliver(
                    "sandbox",
                    "Sandbox-Signature",
                    header(SANDBOX_SECRET, now().getEpochSecond() - 240, body),
                    body)
                .getStatus())
        .isEqualTo(200);
  }

  @Test
  void aMissingOrGarbledSignatureHeaderIs400() {
    String eventId = eventId("evt_sb_");
    String body = sandboxEvent(eventId, "charge.succeeded", now().getEpochSecond(), "sub-x", 1, "");

    assertThat(assertInvalidField(deliver("sandbox", null, null, body), "Sandbox-Signature"))
        .isEqualTo("is required: every delivery is signed");
    assertThat(
            assertInvalidField(
                deliver("sandbox", "Sandbox-Signature", "t=soon,v1=abc", body),
                "Sandbox-Signature"))
        .isEqualTo("timestamp (t) must be Unix seconds");
    assertThat(
            assertInvalidField(
                deliver("sandbox", "Sandbox-Signature", "t=1773144000", body), "Sandbox-Signature"))
        .isEqualTo("has no v1 signature");
    // The other provider's header is not this endpoint's.
    assertInvalidField(
        deliver(
            "sandbox",
            "Stripe-Signature",
            header(SANDBOX_SECRET, now().getEpochSecond(), body),
            body),
        "Sandbox-Signature");

    assertThat(API.stack().paymentEvents.find("sandbox", eventId)).isEmpty();
  }

  @Test
  void anUnknownProviderIs404() {
    String body = "{\"id\":\"evt_1\"}";
    JsonNode problem =
        assertProblem(
            deliver(
                "paypal",
                "Sandbox-Signature",
                header(SANDBOX_SECRET, now().getEpochSecond(), body),
                body),
            404);

    assertThat(problem.get("type").asText()).isEqualTo("https://billing.dev/problems/not-found");
    assertProblem(
        deliver(
            "Stripe",
            "Stripe-Signature",
            header(STRIPE_SECRET, now().getEpochSecond(), body),
            body),
        404);
  }

  @Test
  void aBodyOverTheLimitIs413AndLeavesNoTrace() {
    String eventId = eventId("evt_sb_");
    String event =
        sandboxEvent(eventId, "charge.succeeded", now().getEpochSecond(), "sub-x", 1, "");
    String body = event + " ".repeat(WebhookResource.MAX_BODY_BYTES + 1 - event.length());
    assertThat(body.length()).isEqualTo(256 * 1024 + 1);

    String signature = header(SANDBOX_SECRET, now().getEpochSecond(), body);

    JsonNode problem = assertProblem(deliver("sandbox", "Sandbox-Signature", signature, body), 413);
    assertThat(problem.get("type").asText())
        .isEqualTo("https://billing.dev/problems/payload-too-large");
    // Without a Content-Length (chunked), the limit holds just the same.
    assertProblem(
        buffered(
            API.request("/v1/webhooks/sandbox")
                .header("Sandbox-Signature", signature)
                .property(
                    ClientProperties.REQUEST_ENTITY_PROCESSING, RequestEntityProcessing.CHUNKED)
                .post(Entity.entity(body, MediaType.APPLICATION_JSON_TYPE))),
        413);

    assertThat(API.stack().paymentEvents.find("sandbox", eventId)).isEmpty();
    // One byte less is within the limit (trailing whitespace is still JSON).
    String fits = body.substring(0, body.length() - 1);
    assertThat(
            deliver(
                    "sandbox",
                    "Sandbox-Signature",
                    header(SANDBOX_SECRET, now().getEpochSecond(), fits),
                    fits)
                .getStatus())
        .isEqualTo(200);
  }

  @Test
  void aStripeSignedPaymentIntentSucceededBecomesChargeSucceeded() {
    String subscriptionId = newSubscription();
    long created = now().getEpochSecond() - 1;
    String eventId = eventId("evt_");
    String key = "charge:" + subscriptionId + ":1:1";
    String body =
        """
        {"id":"%s","object":"event","api_version":"2024-06-20","created":%d,
         "data":{"object":{"id":"pi_3Ok%s","object":"payment_intent","amount":999,
           "amount_received":999,"currency":"usd","status":"succeeded","latest_charge":"ch_3Ok1",
           "livemode":false,"payment_method_types":["card"],
           "metadata":{"subscriptionId":"%s","cycle":"1","idempotencyKey":"%s"}}},
         "livemode":false,"pending_webhooks":1,
         "request":{"id":null,"idempotency_key":"%s"},"type":"payment_intent.succeeded"}
        """
            .formatted(eventId, created, eventId, subscriptionId, key, key);
    // Stripe may send several v1 signatures (while a secret is rolled) and a v0: any v1 may match.
    String signature =
        "t="
            + created
            + ",v1="
            + "0".repeat(64)
            + ",v1="
            + WebhookSigning.hmacHex(STRIPE_SECRET, created + "." + body)
            + ",v0="
            + "1".repeat(64);

    Response response = deliver("stripe", "Stripe-Signature", signature, body);

    assertThat(response.getStatus()).isEqualTo(200);
    assertThat(body(response).get("duplicate").asBoolean()).isFalse();
    assertThat(signals(subscriptionId))
        .containsExactly(
            new PaymentEvent(
                eventId,
                "stripe",
                PaymentEvent.Type.CHARGE_SUCCEEDED,
                subscriptionId,
                1,
                key,
                "pi_3Ok" + eventId,
                null,
                null,
                Instant.ofEpochSecond(created)));
    StoredEvent stored = API.stack().paymentEvents.find("stripe", eventId).orElseThrow();
    assertThat(stored.summary())
        .isEqualTo(
            Map.of(
                "amount",
                "9.99",
                "currency",
                "USD",
                "chargeId",
                "ch_3Ok1",
                "status",
                "succeeded",
                "livemode",
                "false"));
  }

  @Test
  void aStripeEventOfAnotherTypeIsStoredAndNotSignalled() {
    String subscriptionId = newSubscription();
    long created = now().getEpochSecond();
    String eventId = eventId("evt_");
    String body =
        """
        {"id":"%s","object":"event","created":%d,"type":"payment_intent.created",
         "data":{"object":{"id":"pi_x%s","object":"payment_intent","amount":999,"currency":"usd",
           "status":"requires_confirmation","metadata":{"subscriptionId":"%s","cycle":"1"}}}}
        """
            .formatted(eventId, created, eventId, subscriptionId);

    Response response =
        deliver("stripe", "Stripe-Signature", header(STRIPE_SECRET, created, body), body);

    assertThat(response.getStatus()).isEqualTo(200);
    assertThat(body(response))
        .isEqualTo(ApiRequests.parse("{\"received\":true,\"duplicate\":false}"));
    StoredEvent stored = API.stack().paymentEvents.find("stripe", eventId).orElseThrow();
    assertThat(stored.type()).isEqualTo("payment_intent.created");
    assertThat(stored.paymentEventType()).isNull();
    assertThat(stored.subscriptionId()).isEqualTo(subscriptionId);
    assertThat(signals(subscriptionId)).isEmpty();
  }

  @Test
  void aChargeEventWithoutOurMetadataIsStoredAndAcknowledged() {
    long created = now().getEpochSecond();
    String eventId = eventId("evt_sb_");
    String body =
        "{\"id\":\""
            + eventId
            + "\",\"type\":\"charge.succeeded\",\"created\":"
            + created
            + ",\"data\":{\"transactionId\":\"ch_sb_1\",\"amount\":\"5.00\",\"currency\":\"EUR\"}}";

    Response response =
        deliver("sandbox", "Sandbox-Signature", header(SANDBOX_SECRET, created, body), body);

    assertThat(response.getStatus()).isEqualTo(200);
    StoredEvent stored = API.stack().paymentEvents.find("sandbox", eventId).orElseThrow();
    assertThat(stored.subscriptionId()).isNull();
    assertThat(stored.paymentEventType()).isEqualTo(PaymentEvent.Type.CHARGE_SUCCEEDED);
    assertThat(stored.summary()).isEqualTo(Map.of("amount", "5.00", "currency", "EUR"));
  }

  @Test
  void anEventForASubscriptionWithoutWorkflowIsStoredAndAcknowledged() {
    long created = now().getEpochSecond();
    String eventId = eventId("evt_sb_");
    String missing = "sub_never_created_" + UUID.randomUUID();
    String body = sandboxEvent(eventId, "charge.refunded", created, missing, 4, "");

    Response response =
        deliver("sandbox", "Sandbox-Signature", header(SANDBOX_SECRET, created, body), body);

    assertThat(response.getStatus()).isEqualTo(200);
    assertThat(body(response).get("duplicate").asBoolean()).isFalse();
    assertThat(API.stack().paymentEvents.find("sandbox", eventId))
        .map(StoredEvent::cycle)
        .contains(4L);
  }

  @Test
  void aStripeBankDebitDisputeIsAReturnOfTheChargeAnEarlierEventNamed() {
    String subscriptionId = newSubscription();
    long created = now().getEpochSecond() - 10;
    String paymentIntent = "pi_ach_" + UUID.randomUUID().toString().substring(0, 8);
    String key = "charge:" + subscriptionId + ":1:1";
    String processing =
        """
        {"id":"%s","object":"event","created":%d,"type":"payment_intent.processing",
         "data":{"object":{"id":"%s","object":"payment_intent","amount":999,"currency":"usd",
           "status":"processing","payment_method_types":["us_bank_account"],
           "metadata":{"subscriptionId":"%s","cycle":"1","idempotencyKey":"%s"}}}}
        """
            .formatted(eventId("evt_"), created, paymentIntent, subscriptionId, key);
    String disputeId = eventId("evt_");
    String dispute =
        """
        {"id":"%s","object":"event","created":%d,"type":"charge.dispute.created",
         "data":{"object":{"id":"du_1","object":"dispute","amount":999,"currency":"usd",
           "charge":"py_1","payment_intent":"%s","reason":"insufficient_funds",
           "network_reason_code":"R01","status":"lost","metadata":{},"livemode":false}}}
        """
            .formatted(disputeId, created + 5, paymentIntent);

    assertThat(
            deliver(
                    "stripe",
                    "Stripe-Signature",
                    header(STRIPE_SECRET, created, processing),
                    processing)
                .getStatus())
        .isEqualTo(200);
    assertThat(
            deliver(
                    "stripe",
                    "Stripe-Signature",
                    header(STRIPE_SECRET, created + 5, dispute),
                    dispute)
                .getStatus())
        .isEqualTo(200);

    assertThat(signals(subscriptionId))
        .containsExactly(
            new PaymentEvent(
                disputeId,
                "stripe",
                PaymentEvent.Type.CHARGE_RETURNED,
                subscriptionId,
                1,
                key,
                paymentIntent,
                "R01",
                "disputed: insufficient_funds",
                Instant.ofEpochSecond(created + 5)));
  }

  // ---- helpers ----

  private static Response deliver(String provider, String header, String signature, String body) {
    Invocation.Builder request = API.request("/v1/webhooks/" + provider);
    if (header != null) {
      request.header(header, signature);
    }
    return buffered(request.post(Entity.entity(body, MediaType.APPLICATION_JSON_TYPE)));
  }

  /** Read whole at once: the test client's connection goes back to its small pool. */
  private static Response buffered(Response response) {
    response.bufferEntity();
    return response;
  }

  private static JsonNode assertUnauthorized(Response response) {
    JsonNode problem = assertProblem(response, 401);
    assertThat(problem.get("type").asText())
        .isEqualTo("https://billing.dev/problems/invalid-signature");
    return problem;
  }

  private static String newSubscription() {
    return API.created(newAccount(), subscriptionBody()).get("subscriptionId").asText();
  }

  private static Instant now() {
    return API.stack().clock.instant();
  }

  private static String eventId(String prefix) {
    return prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
  }

  private static String sandboxEvent(
      String eventId, String type, long created, String subscriptionId, long cycle, String more) {
    return "{\"id\":\""
        + eventId
        + "\",\"type\":\""
        + type
        + "\",\"created\":"
        + created
        + ",\"data\":{\"idempotencyKey\":\"charge:"
        + subscriptionId
        + ":"
        + cycle
        + ":1\","
        + "\"transactionId\":\"ch_sb_"
        + eventId
        + "\",\"subscriptionId\":\""
        + subscriptionId
        + "\",\"cycle\":"
        + cycle
        + ",\"amount\":\"9.99\",\"currency\":\"USD\""
        + (more.isEmpty() ? "" : "," + more)
        + "}}";
  }

  /**
   * The paymentEvent signals delivered to the subscription's workflow, in order (before the
   * answer).
   */
  private static List<PaymentEvent> signals(String subscriptionId) {
    return API.stack().signals.delivered.stream()
        .filter(event -> event.subscriptionId().equals(subscriptionId))
        .toList();
  }
}
