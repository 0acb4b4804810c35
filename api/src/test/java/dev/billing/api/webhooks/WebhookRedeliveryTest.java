package dev.billing.api.webhooks;

import static dev.billing.api.webhooks.WebhookSigning.SANDBOX_SECRET;
import static dev.billing.api.webhooks.WebhookSigning.header;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.billing.activities.payments.PaymentEventIntake;
import dev.billing.api.errors.ApiProblemMapper;
import dev.billing.domain.PaymentEvent;
import dev.billing.store.BillingTables;
import dev.billing.store.events.PaymentEventStore;
import dev.billing.store.testing.LocalDynamoDb;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.dropwizard.testing.junit5.ResourceExtension;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowServiceException;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the endpoint answers when the signal cannot be delivered, and why a redelivery still reaches
 * the workflow: the resource alone, on DynamoDB Local, with a signal port that fails on demand.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class WebhookRedeliveryTest {
  private static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");
  private static final String TABLE = "payment-events";
  private static final LocalDynamoDb DYNAMO = LocalDynamoDb.start();
  private static final PaymentEventStore EVENTS = eventStore();
  private static final List<PaymentEvent> DELIVERED = new CopyOnWriteArrayList<>();
  private static final AtomicReference<RuntimeException> FAILURE = new AtomicReference<>();

  static final ResourceExtension RESOURCE =
      ResourceExtension.builder()
          .setRegisterDefaultExceptionMappers(false)
          .addResource(
              WebhookResource.create(
                  new WebhookSettings(null, SANDBOX_SECRET),
                  EVENTS,
                  new PaymentEventIntake.Signals() {
                    @Override
                    public void send(PaymentEvent event) {
                      RuntimeException failure = FAILURE.get();
                      if (failure != null) {
                        throw failure;
                      }
                      DELIVERED.add(event);
                    }

                    @Override
                    public boolean startEnded(PaymentEvent event) {
                      return false;
                    }
                  },
                  InstantSource.fixed(NOW)))
          .addProvider(new ApiProblemMapper())
          .build();

  @BeforeEach
  void reset() {
    DELIVERED.clear();
    FAILURE.set(null);
  }

  @AfterAll
  static void stopDynamo() {
    DYNAMO.close();
  }

  @Test
  void aSignalThatFailsIs503AndTheRedeliveryOfTheStoredEventSignals() throws Exception {
    FAILURE.set(
        new WorkflowServiceException(
            execution("sub_1"), "Subscription", new StatusRuntimeException(Status.UNAVAILABLE)));
    String body = event("evt_sb_redelivered", "sub_1");

    Response first = deliver(body);

    assertThat(first.getStatus()).isEqualTo(503);
    assertThat(first.getHeaderString("Retry-After")).isEqualTo("5");
    assertThat(first.getMediaType().toString()).isEqualTo("application/problem+json");
    assertThat(json(first).get("type").asText())
        .isEqualTo("https://billing.dev/problems/service-unavailable");
    assertThat(EVENTS.find("sandbox", "evt_sb_redelivered")).isPresent();
    assertThat(DELIVERED).isEmpty();

    FAILURE.set(null);
    Response second = deliver(body);

    assertThat(second.getStatus()).isEqualTo(200);
    assertThat(json(second).get("duplicate").asBoolean()).isTrue();
    assertThat(DELIVERED).extracting(PaymentEvent::eventId).containsExactly("evt_sb_redelivered");
  }

  @Test
  void noRunningWorkflowIsAcknowledged() throws Exception {
    FAILURE.set(new WorkflowNotFoundException(execution("sub_gone"), "Subscription", null));

    Response response = deliver(event("evt_sb_orphan", "sub_gone"));

    assertThat(response.getStatus()).isEqualTo(200);
    assertThat(json(response).get("duplicate").asBoolean()).isFalse();
    assertThat(EVENTS.find("sandbox", "evt_sb_orphan")).isPresent();
  }

  @Test
  void aStripeDeliveryWithoutAStripeSecretHasNoEndpoint() {
    String body = event("evt_1", "sub_1");

    Response response =
        RESOURCE
            .target("/v1/webhooks/stripe")
            .request()
            .header("Stripe-Signature", header(SANDBOX_SECRET, NOW.getEpochSecond(), body))
            .post(Entity.entity(body, MediaType.APPLICATION_JSON_TYPE));

    assertThat(response.getStatus()).isEqualTo(404);
    assertThat(EVENTS.find("stripe", "evt_1")).isEmpty();
  }

  private static Response deliver(String body) {
    return RESOURCE
        .target("/v1/webhooks/sandbox")
        .request()
        .header("Sandbox-Signature", header(SANDBOX_SECRET, NOW.getEpochSecond(), body))
        .post(Entity.entity(body, MediaType.APPLICATION_JSON_TYPE));
  }

  private static String event(String eventId, String subscriptionId) {
    return "{\"id\":\""
        + eventId
        + "\",\"type\":\"charge.succeeded\",\"created\":"
        + NOW.getEpochSecond()
        + ",\"data\":{\"subscriptionId\":\""
        + subscriptionId
        + "\",\"cycle\":2,\"transactionId\":\"ch_sb_1\"}}";
  }

  private static JsonNode json(Response response) throws Exception {
    return new ObjectMapper()
        .readTree(response.readEntity(String.class).getBytes(StandardCharsets.UTF_8));
  }

  private static WorkflowExecution execution(String subscriptionId) {
    return WorkflowExecution.newBuilder().setWorkflowId("subscription-" + subscriptionId).build();
  }

  private static PaymentEventStore eventStore() {
    DYNAMO.client().createTable(BillingTables.schema(BillingTables.PAYMENT_EVENTS_SCHEMA, TABLE));
    return new PaymentEventStore(
        DYNAMO.client(),
        TABLE,
        "redelivery-test-page-token-key-0123456789".getBytes(StandardCharsets.UTF_8));
  }
}
