package dev.billing.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.runtime.DynamoConnection;
import dev.billing.runtime.DynamoSettings;
import dev.billing.runtime.PageTokenKeys;
import dev.billing.store.DynamoBillingStore;
import dev.billing.store.StoreSettings;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
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
 * The whole system as a user meets it: the embedded stack started like {@code ./billing dev},
 * driven only over HTTP, the test clock advanced through three monthly cycles.
 */
class DevStackEndToEndTest {

  @RegisterExtension static final RunningDevStack STACK = new RunningDevStack();

  private HttpJson http;

  @BeforeEach
  void http() {
    http = STACK.http();
  }

  @Test
  void bills_three_cycles_then_cancels() throws Exception {
    LocalDate start = EndToEnd.today(http).plusDays(5);

    JsonNode paying = EndToEnd.create(http, "acc-e2e", "pm_card_visa", start);
    JsonNode declined = EndToEnd.create(http, "acc-e2e", "pm_card_chargeDeclined", start);
    String payingId = paying.get("subscriptionId").asText();
    String declinedId = declined.get("subscriptionId").asText();
    assertThat(paying.get("nextPaymentDate").asText()).isEqualTo(start.toString());
    assertThat(paying.get("nextReminderDate").asText()).isEqualTo(start.minusDays(3).toString());
    assertThat(http.get("/v1/billing/due-payments?date=" + start).body().get("items"))
        .extracting(item -> item.get("subscriptionId").asText())
        .contains(payingId, declinedId);

    // Through the third due date and one day beyond: cycle 4's reminder (three days before its due
    // date, a month later) is never reached, whatever today's month lengths are.
    EndToEnd.advanceTo(
        http, start.plusMonths(2).plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant());

    // Cycle n is due on the start date's day n-1 months later (clamped to the month's end).
    List<String> dueDates =
        List.of(start.toString(), start.plusMonths(1).toString(), start.plusMonths(2).toString());
    JsonNode receipts =
        EndToEnd.await(
            http, "/v1/accounts/acc-e2e/receipts", body -> body.get("items").size() >= 3);
    assertThat(receipts.get("items")).hasSize(3);
    assertThat(receipts.get("items"))
        .allSatisfy(
            receipt -> {
              assertThat(receipt.get("subscriptionId").asText()).isEqualTo(payingId);
              assertThat(receipt.get("amount").asText()).isEqualTo("9.99");
              assertThat(receipt.get("currency").asText()).isEqualTo("USD");
            });
    assertThat(receipts.get("items"))
        .extracting(r -> r.get("cycle").asLong())
        .containsExactly(3L, 2L, 1L);
    assertThat(receipts.get("items"))
        .extracting(r -> r.get("processedAt").asText().substring(0, 10))
        .containsExactly(dueDates.get(2), dueDates.get(1), dueDates.get(0));

    JsonNode payingNow = http.get("/v1/accounts/acc-e2e/subscriptions/" + payingId).body();
    assertThat(payingNow.get("status").asText()).isEqualTo("ACTIVE");
    assertThat(payingNow.get("nextPaymentDate").asText()).isEqualTo(start.plusMonths(3).toString());

    // Its first charge hard-declined: it never started, and nothing more was charged or owed.
    JsonNode declinedNow =
        EndToEnd.await(
            http,
            "/v1/accounts/acc-e2e/subscriptions/" + declinedId,
            body -> body.get("status").asText().equals("INCOMPLETE_EXPIRED"));
    assertThat(declinedNow.get("nextPaymentDate").isNull()).isTrue();
    JsonNode periods =
        http.get("/v1/accounts/acc-e2e/subscriptions/" + declinedId + "/periods").body();
    assertThat(periods.get("items"))
        .extracting(p -> p.get("status").asText())
        .containsExactly("ERROR");

    assertThat(events(payingId))
        .containsExactly(
            "SUBSCRIPTION_CREATED",
            "REMINDER_SENT",
            "PAYMENT_SUCCEEDED",
            "REMINDER_SENT",
            "PAYMENT_SUCCEEDED",
            "REMINDER_SENT",
            "PAYMENT_SUCCEEDED");

    // Every message went out over SMTP to the stack's mail server: a reminder and a receipt per
    // paid cycle, a reminder and a failure notice per declined one.
    JsonNode outbox = http.get("/v1/dev/outbox").body().get("items");
    assertThat(outbox)
        .filteredOn(m -> m.get("subscriptionId").asText().equals(payingId))
        .extracting(m -> m.get("kind").asText())
        .containsExactly(
            "PAYMENT_REMINDER",
            "PAYMENT_RECEIPT",
            "PAYMENT_REMINDER",
            "PAYMENT_RECEIPT",
            "PAYMENT_REMINDER",
            "PAYMENT_RECEIPT");
    // A first charge hard-declined is not retried: the customer is told it did not start.
    assertThat(outbox)
        .filteredOn(m -> m.get("subscriptionId").asText().equals(declinedId))
        .extracting(m -> m.get("kind").asText())
        .containsExactly("PAYMENT_REMINDER", "SUBSCRIPTION_EXPIRED");
    assertMailOf(payingId, start);

    JsonNode charges = http.get("/v1/dev/charges").body().get("items");
    assertThat(charges)
        .filteredOn(c -> c.get("idempotencyKey").asText().contains(payingId))
        .extracting(c -> c.get("idempotencyKey").asText() + " " + c.get("outcome").asText())
        .containsExactly(
            "charge:" + payingId + ":1:1 SUCCEEDED",
            "charge:" + payingId + ":2:1 SUCCEEDED",
            "charge:" + payingId + ":3:1 SUCCEEDED");
    assertThat(charges)
        .filteredOn(c -> c.get("idempotencyKey").asText().contains(declinedId))
        .extracting(c -> c.get("outcome").asText())
        .containsExactly("DECLINED");

    // Cancel: nothing is charged afterwards, however far the clock moves.
    HttpJson.Response cancelled =
        http.post(
            "/v1/accounts/acc-e2e/subscriptions/" + payingId + "/cancel", "{\"reason\":\"e2e\"}");
    assertThat(cancelled.status()).isEqualTo(200);
    assertThat(cancelled.body().get("status").asText()).isEqualTo("CANCELLED");
    assertThat(
            http.post("/v1/accounts/acc-e2e/subscriptions/" + payingId + "/cancel", "{}").status())
        .isEqualTo(409);
    HttpJson.Response badClock = http.post("/v1/dev/clock/advance", "{\"duration\":\"soon\"}");
    assertThat(badClock.status()).isEqualTo(400);
    assertThat(badClock.body().get("errors").get(0).get("field").asText()).isEqualTo("duration");
    http.post("/v1/dev/clock/advance", "{\"duration\":\"P62D\"}");
    assertThat(http.get("/v1/dev/charges").body().get("items"))
        .filteredOn(c -> c.get("idempotencyKey").asText().contains(payingId))
        .hasSize(3);
    assertThat(events(payingId)).last().isEqualTo("SUBSCRIPTION_CANCELLED");
  }

  @Test
  void the_dev_table_keeps_its_few_date_key_shards_whatever_a_later_process_asks_for()
      throws Exception {
    EndToEnd.create(http, "acc-shards", "pm_card_visa", EndToEnd.today(http).plusDays(5));

    // A process configured for production's 16 shards opens the dev table: the table's count wins.
    DynamoConnection dynamo =
        new DynamoConnection(DynamoSettings.local(STACK.settings().dynamoEndpoint()));
    try {
      DynamoBillingStore store =
          new DynamoBillingStore(
              dynamo.client(), dynamo.tableNames(), StoreSettings.defaults(PageTokenKeys.random()));
      assertThat(store.sharding().shards()).isEqualTo(DevStackSettings.DEV_DATE_KEY_SHARDS);
    } finally {
      dynamo.stop();
    }
  }

  @Test
  void the_dev_key_acts_as_operator_and_nothing_answers_without_a_key() throws Exception {
    LocalDate start = EndToEnd.today(http).plusDays(5);
    String id =
        EndToEnd.create(http, "acc-dev-key", "pm_card_visa", start).get("subscriptionId").asText();

    HttpJson.Response anonymous =
        http.getAnonymously("/v1/accounts/acc-dev-key/subscriptions/" + id);
    assertThat(anonymous.status()).isEqualTo(401);
    assertThat(anonymous.body().get("type").asText())
        .isEqualTo("https://billing.dev/problems/unauthorized");
    assertThat(http.getAnonymously("/v1/dev/clock").status()).isEqualTo(401);

    http.post(
        "/v1/accounts/acc-dev-key/subscriptions/" + id + "/cancel", "{\"reason\":\"dev key\"}");
    JsonNode history = http.get("/v1/accounts/acc-dev-key/subscriptions/" + id + "/history").body();
    JsonNode cancel = history.get("items").get(history.get("items").size() - 1);
    assertThat(cancel.get("event").asText()).isEqualTo("SUBSCRIPTION_CANCELLED");
    assertThat(cancel.get("actor").asText()).isEqualTo("dev");
  }

  /** The first cycle's reminder and receipt as the customer reads them, and the raw receipt. */
  private void assertMailOf(String subscriptionId, LocalDate firstDue) throws Exception {
    DateTimeFormatter usLong = DateTimeFormatter.ofPattern("MMMM d, yyyy", Locale.US);
    JsonNode mail = http.get("/v1/dev/outbox?subscriptionId=" + subscriptionId).body().get("items");
    JsonNode reminder = mail.get(0);
    assertThat(reminder.get("to").asText()).isEqualTo("ada@example.com");
    assertThat(reminder.get("messageId").asText())
        .isEqualTo("<reminder.1." + subscriptionId + "@billing>");
    assertThat(reminder.get("subject").asText())
        .isEqualTo("Your plus-monthly payment of $9.99 is due on " + usLong.format(firstDue));
    assertThat(reminder.get("date").asText()).startsWith(firstDue.minusDays(3).toString());
    assertThat(reminder.get("text").asText())
        .contains("We will charge $9.99 to Visa •••• 4242 on that day.");

    JsonNode receipt = mail.get(1);
    String receiptId = receipt.get("messageId").asText();
    assertThat(receiptId).startsWith("<receipt-").endsWith(".1." + subscriptionId + "@billing>");
    assertThat(receipt.get("subject").asText())
        .isEqualTo("Receipt for your plus-monthly payment of $9.99");
    assertThat(receipt.get("text").asText())
        .contains("Date:            " + usLong.format(firstDue) + "\n");

    HttpJson.TextResponse eml =
        http.getText(
            "/v1/dev/outbox?format=eml&messageId="
                + URLEncoder.encode(receiptId, StandardCharsets.UTF_8));
    assertThat(eml.status()).isEqualTo(200);
    assertThat(eml.contentType()).startsWith("message/rfc822");
    assertThat(eml.body())
        .contains(
            "Message-ID: " + receiptId + "\r\n",
            "To: ada@example.com\r\n",
            "Subject: Receipt for your plus-monthly payment of $9.99\r\n",
            "multipart/alternative",
            "Content-Type: text/html; charset=UTF-8");

    HttpJson.TextResponse mbox =
        http.getText("/v1/dev/outbox?format=eml&subscriptionId=" + subscriptionId);
    assertThat(mbox.contentType()).startsWith("application/mbox");
    assertThat(mbox.body().lines().filter(line -> line.startsWith("From billing@localhost ")))
        .hasSize(6);
    assertThat(http.get("/v1/dev/outbox?format=pdf").status()).isEqualTo(400);
  }

  private List<String> events(String subscriptionId) throws Exception {
    List<String> events = new ArrayList<>();
    http.get("/v1/accounts/acc-e2e/subscriptions/" + subscriptionId + "/history?limit=200")
        .body()
        .get("items")
        .forEach(entry -> events.add(entry.get("event").asText()));
    return events;
  }
}
