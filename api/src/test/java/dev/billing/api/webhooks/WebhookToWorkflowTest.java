package dev.billing.api.webhooks;

import static dev.billing.api.support.ApiTestSupport.body;
import static dev.billing.api.support.ApiTestSupport.newAccount;
import static dev.billing.api.support.ApiTestSupport.subscriptionBody;
import static dev.billing.api.webhooks.WebhookSigning.SANDBOX_SECRET;
import static dev.billing.api.webhooks.WebhookSigning.header;
import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.api.ApiConfiguration;
import dev.billing.api.support.ApiTestSupport;
import dev.billing.domain.BillingIds;
import dev.billing.domain.PaymentEvent;
import dev.billing.store.events.StoredEvent;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.common.converter.DefaultDataConverter;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.client.Invocation;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A signed delivery at POST /v1/webhooks/sandbox reaches its subscription's workflow on the real
 * stack: stored by the payment-events store on DynamoDB Local, signalled through the Temporal test
 * server, read back from the workflow's history. What the endpoint answers to every kind of
 * delivery is WebhookEndpointTest's.
 */
@Tag("e2e")
class WebhookToWorkflowTest {

  static final ApiTestSupport API =
      ApiTestSupport.onSharedStack(ConfigOverride.config("webhooks.sandboxSecret", SANDBOX_SECRET));

  @RegisterExtension static final DropwizardAppExtension<ApiConfiguration> APP = API.extension();

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
        .isEqualTo(ApiTestSupport.parse("{\"received\":true,\"duplicate\":false}"));
    StoredEvent stored = API.stack().paymentEvents.find("sandbox", eventId).orElseThrow();
    assertThat(stored.type()).isEqualTo("charge.succeeded");
    assertThat(stored.paymentEventType()).isEqualTo(PaymentEvent.Type.CHARGE_SUCCEEDED);
    assertThat(stored.subscriptionId()).isEqualTo(subscriptionId);
    assertThat(stored.cycle()).isEqualTo(1L);
    assertThat(stored.idempotencyKey()).isEqualTo("charge:" + subscriptionId + ":1:1");
    assertThat(stored.transactionId()).isEqualTo("ch_sb_" + eventId);
    assertThat(stored.occurredAt()).isEqualTo(Instant.ofEpochSecond(created));
    assertThat(stored.summary()).isEqualTo(Map.of("amount", "9.99", "currency", "USD"));
    assertThat(signalsOnceThereAre(1, subscriptionId))
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
   * The signals once {@code count} are in history, or what is there after 30 s. A signal that
   * arrives while a workflow task is running is buffered by the server and enters the history only
   * when that task completes, so it can be accepted before it is visible.
   */
  private static List<PaymentEvent> signalsOnceThereAre(int count, String subscriptionId) {
    long deadline = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
    List<PaymentEvent> signals = signals(subscriptionId);
    while (signals.size() < count && System.nanoTime() < deadline) {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      signals = signals(subscriptionId);
    }
    return signals;
  }

  /**
   * The paymentEvent signals in the subscription's workflow histories, decoded, in order, across
   * every run: the workflow may continue as new between two deliveries.
   */
  private static List<PaymentEvent> signals(String subscriptionId) {
    var client = API.stack().env.getWorkflowClient();
    List<HistoryEvent> events = new java.util.ArrayList<>();
    String runId = null;
    do {
      List<HistoryEvent> run =
          runId == null
              ? client.fetchHistory(BillingIds.workflowId(subscriptionId)).getEvents()
              : client.fetchHistory(BillingIds.workflowId(subscriptionId), runId).getEvents();
      events.addAll(0, run);
      String previous =
          run.get(0).getWorkflowExecutionStartedEventAttributes().getContinuedExecutionRunId();
      runId = previous.isEmpty() ? null : previous;
    } while (runId != null);
    return events.stream()
        .filter(e -> e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED)
        .map(HistoryEvent::getWorkflowExecutionSignaledEventAttributes)
        .filter(a -> a.getSignalName().equals("paymentEvent"))
        .map(
            a ->
                DefaultDataConverter.newDefaultInstance()
                    .fromPayloads(
                        0, Optional.of(a.getInput()), PaymentEvent.class, PaymentEvent.class))
        .toList();
  }
}
