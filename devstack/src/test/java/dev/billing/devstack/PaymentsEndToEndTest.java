package dev.billing.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.activities.payments.GatewayEvent;
import dev.billing.activities.payments.sandbox.SandboxWebhooks;
import dev.billing.domain.BillingIds;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Payments as a user meets them, through the dev stack over HTTP and the test clock: dunning that
 * recovers on the third try, and a bank debit whose webhooks arrive twice and out of order.
 */
class PaymentsEndToEndTest {

  @RegisterExtension static final RunningDevStack STACK = new RunningDevStack();

  private HttpJson http;

  @BeforeEach
  void http() {
    http = STACK.http();
  }

  @Test
  void aSoftDeclineIsRetriedOnTheScheduleAndSucceedsOnTheThirdTry() throws Exception {
    LocalDate due = EndToEnd.today(http).plusDays(2);
    String id =
        EndToEnd.create(http, "acc-dunning", "pm_sandbox_recoversAfter_2", due)
            .get("subscriptionId")
            .asText();

    // Retries on day 1 and day 3 after the due date; stop before cycle 2's reminder.
    EndToEnd.advanceTo(http, due.plusDays(4).atStartOfDay(ZoneOffset.UTC).toInstant());

    JsonNode receipts =
        EndToEnd.await(http, "/v1/accounts/acc-dunning/receipts", b -> b.get("items").size() >= 1);
    assertThat(receipts.get("items")).hasSize(1);
    assertThat(receipts.get("items").get(0).get("amount").asText()).isEqualTo("9.99");
    assertThat(receipts.get("items").get(0).get("processedAt").asText())
        .startsWith(due.plusDays(3).toString());

    JsonNode charges = http.get("/v1/dev/charges").body().get("items");
    assertThat(charges)
        .filteredOn(c -> c.get("idempotencyKey").asText().startsWith("charge:" + id + ":"))
        .extracting(
            c ->
                c.get("idempotencyKey").asText()
                    + " "
                    + c.get("outcome").asText()
                    + " "
                    + c.get("at").asText().substring(0, 10))
        .containsExactly(
            "charge:" + id + ":1:1 DECLINED " + due,
            "charge:" + id + ":1:2 DECLINED " + due.plusDays(1),
            "charge:" + id + ":1:3 SUCCEEDED " + due.plusDays(3));

    JsonNode period =
        http.get("/v1/accounts/acc-dunning/subscriptions/" + id + "/periods")
            .body()
            .get("items")
            .get(0);
    assertThat(period.get("status").asText()).isEqualTo("COMPLETED");
    assertThat(period.get("attempts").asInt()).isEqualTo(3);
    assertThat(
            http.get("/v1/accounts/acc-dunning/subscriptions/" + id).body().get("status").asText())
        .isEqualTo("ACTIVE");

    // One notice per failure, each naming the next retry date.
    List<String> failures = new ArrayList<>();
    http.get("/v1/dev/outbox")
        .body()
        .get("items")
        .forEach(
            m -> {
              if (m.get("subscriptionId").asText().equals(id)
                  && m.get("kind").asText().equals("PAYMENT_FAILED")) {
                failures.add(m.get("text").asText());
              }
            });
    assertThat(failures).hasSize(2);
    DateTimeFormatter usLong = DateTimeFormatter.ofPattern("MMMM d, yyyy", Locale.US);
    assertThat(failures.get(0))
        .contains("We will try again on " + usLong.format(due.plusDays(1)) + ".");
    assertThat(failures.get(1))
        .contains("We will try again on " + usLong.format(due.plusDays(3)) + ".");
  }

  @Test
  void aBankDebitSettlesOnceThoughItsWebhooksArriveTwiceAndOutOfOrder() throws Exception {
    LocalDate due = EndToEnd.today(http).plusDays(2);
    String id =
        EndToEnd.create(http, "acc-debit", "pm_sandbox_bankDebit", due)
            .get("subscriptionId")
            .asText();
    String path = "/v1/accounts/acc-debit/subscriptions/" + id;

    EndToEnd.advanceTo(
        http, due.atStartOfDay(ZoneOffset.UTC).toInstant().plus(Duration.ofHours(12)));
    JsonNode pending = EndToEnd.await(http, path + "/periods", b -> b.get("items").size() == 2);
    assertThat(pending.get("items").get(0).get("status").asText()).isEqualTo("PENDING_SETTLEMENT");
    assertThat(pending.get("items").get(1).get("status").asText()).isEqualTo("SCHEDULED");
    assertThat(http.get("/v1/accounts/acc-debit/receipts").body().get("items")).isEmpty();

    // Settles three days later; the sandbox delivers charge.succeeded to the webhook by itself.
    EndToEnd.advanceTo(
        http, due.plusDays(3).atStartOfDay(ZoneOffset.UTC).toInstant().plus(Duration.ofHours(12)));
    EndToEnd.await(
        http,
        path + "/periods",
        b -> b.get("items").get(0).get("status").asText().equals("COMPLETED"));

    GatewayEvent settled =
        STACK
            .stack()
            .sandbox()
            .listEvents(Instant.EPOCH, EndToEnd.now(http).plusSeconds(1))
            .stream()
            .filter(e -> e.subscriptionId().equals(id) && e.type() == GatewayEvent.Type.SUCCEEDED)
            .findFirst()
            .orElseThrow();
    // The provider redelivers it, then a stale "failed" for the same charge arrives late.
    assertThat(deliver(settled).body()).contains("\"duplicate\":true");
    GatewayEvent lateFailure =
        new GatewayEvent(
            settled.id() + "_late_failure",
            GatewayEvent.Type.FAILED,
            settled.occurredAt(),
            settled.idempotencyKey(),
            settled.transactionId(),
            id,
            settled.cycle(),
            settled.amount(),
            "account_closed",
            "The bank account is closed.");
    assertThat(deliver(lateFailure).statusCode()).isEqualTo(200);
    assertThat(deliver(lateFailure).body()).contains("\"duplicate\":true");

    // No second effect must mean "handled and ignored", not "not looked at yet".
    awaitSignalsHandled(BillingIds.workflowId(id), 3);
    assertThat(http.get("/v1/accounts/acc-debit/receipts").body().get("items")).hasSize(1);
    JsonNode period = http.get(path + "/periods").body().get("items").get(0);
    assertThat(period.get("status").asText()).isEqualTo("COMPLETED");
    List<String> events = new ArrayList<>();
    http.get(path + "/history?limit=200")
        .body()
        .get("items")
        .forEach(e -> events.add(e.get("event").asText()));
    // Created two days before the due date: the reminder (three days before) goes out late, at
    // once.
    assertThat(events)
        .containsExactly(
            "SUBSCRIPTION_CREATED", "REMINDER_SENT", "PAYMENT_PENDING", "PAYMENT_SUCCEEDED");
    assertThat(http.get(path).body().get("status").asText()).isEqualTo("ACTIVE");
  }

  /**
   * Waits until the workflow's current run holds at least {@code count} paymentEvent signals and a
   * workflow task completed after the last of them, i.e. the workflow has processed them.
   */
  private static void awaitSignalsHandled(String workflowId, int count) throws Exception {
    WorkflowServiceStubs service =
        WorkflowServiceStubs.newServiceStubs(
            WorkflowServiceStubsOptions.newBuilder()
                .setTarget(STACK.stack().temporalTarget())
                .build());
    try {
      WorkflowClient client = WorkflowClient.newInstance(service);
      await("the workflow processes " + count + " payment events")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> signalsHandled(client.fetchHistory(workflowId).getEvents(), count));
    } finally {
      service.shutdown();
    }
  }

  /** The last of at least {@code count} signals is followed by a completed workflow task. */
  private static boolean signalsHandled(List<HistoryEvent> events, int count) {
    int lastSignal = -1;
    int signals = 0;
    for (int i = 0; i < events.size(); i++) {
      if (events.get(i).getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED) {
        lastSignal = i;
        signals++;
      }
    }
    return signals >= count
        && events.subList(lastSignal, events.size()).stream()
            .anyMatch(e -> e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED);
  }

  private HttpResponse<String> deliver(GatewayEvent event) throws Exception {
    Instant now = Instant.parse(http.get("/v1/dev/clock").body().get("now").asText());
    SandboxWebhooks.SignedWebhook webhook =
        SandboxWebhooks.sign(event, SandboxWebhooks.DEV_SECRET, now);
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(STACK.stack().apiUrl() + SandboxWebhooks.PATH))
                .header("Content-Type", "application/json")
                .header(SandboxWebhooks.SIGNATURE_HEADER, webhook.signatureHeader())
                .POST(HttpRequest.BodyPublishers.ofString(webhook.body()))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }
}
