package dev.billing.api;

import static dev.billing.api.support.ApiTestSupport.body;
import static dev.billing.api.support.ApiTestSupport.newAccount;
import static dev.billing.api.support.ApiTestSupport.subscriptionBody;
import static dev.billing.api.support.ApiTestSupport.subscriptionPath;
import static dev.billing.api.support.ApiTestSupport.with;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.activities.payments.sandbox.SandboxCharge;
import dev.billing.activities.views.Timestamps;
import dev.billing.api.support.ApiTestStack;
import dev.billing.api.support.ApiTestSupport;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Term;
import dev.billing.store.PageRequest;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import jakarta.ws.rs.client.Entity;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What billing leaves behind, seen through the API: receipts, periods, history. These tests move
 * the stack's clock, so they live apart and take their dates from the clock.
 */
@Tag("e2e")
class BillingCycleTest {

  static final ApiTestSupport API = ApiTestSupport.start();

  @RegisterExtension static final DropwizardAppExtension<ApiConfiguration> APP = API.extension();

  @Test
  void aChargedCycleShowsAsReceiptPeriodAndHistory() {
    String account = newAccount();
    LocalDate start = today().plusDays(5);
    String id =
        API.created(
                account,
                with(
                    with(
                        with(
                            with(subscriptionBody(), "billingDay", start.getDayOfMonth()),
                            "startDate",
                            start.toString()),
                        "amount",
                        "12.34"),
                    "reminderDaysBefore",
                    2))
            .get("subscriptionId")
            .asText();

    sleepUntil(start.plusDays(1));

    SandboxCharge charge = chargeOf(id, 1);
    JsonNode receipts = body(API.get("/v1/accounts/" + account + "/receipts"));
    assertThat(receipts.get("items")).hasSize(1);
    JsonNode receipt = receipts.get("items").get(0);
    assertThat(receipt.get("subscriptionId").asText()).isEqualTo(id);
    assertThat(receipt.get("cycle").asLong()).isEqualTo(1);
    assertThat(receipt.get("sku").asText()).isEqualTo("pro-monthly");
    assertThat(receipt.get("amount").asText()).isEqualTo("12.34");
    assertThat(receipt.get("currency").asText()).isEqualTo("USD");
    assertThat(receipt.get("transactionId").asText()).isEqualTo(charge.transactionId());
    assertThat(receipt.get("processedAt").asText()).isEqualTo(Timestamps.instant(charge.at()));
    assertThat(receipt.get("paymentMethod").get("mask").asText()).isEqualTo("Visa •••• 4242");
    assertThat(charge.at()).isAfterOrEqualTo(start.atStartOfDay(ZoneOffset.UTC).toInstant());
    assertThat(Instant.parse(receipt.get("expiresAt").asText()))
        .isAfter(
            charge
                .at()
                .atZone(ZoneOffset.UTC)
                .plus(ApiTestStack.RECEIPT_RETENTION)
                .toInstant()
                .minusSeconds(1))
        .isBefore(
            charge
                .at()
                .atZone(ZoneOffset.UTC)
                .plus(ApiTestStack.RECEIPT_RETENTION)
                .toInstant()
                .plusSeconds(1));

    JsonNode periods = body(API.get(subscriptionPath(account, id) + "/periods"));
    JsonNode first = periods.get("items").get(0);
    assertThat(first.get("cycle").asLong()).isEqualTo(1);
    assertThat(first.get("status").asText()).isEqualTo("COMPLETED");
    assertThat(first.get("dueDate").asText()).isEqualTo(start.toString());
    assertThat(first.get("amount").asText()).isEqualTo("12.34");
    assertThat(first.get("currency").asText()).isEqualTo("USD");
    assertThat(first.get("attempts").asInt()).isEqualTo(1);
    assertThat(first.get("transactionId").asText()).isEqualTo(charge.transactionId());

    JsonNode history = body(API.get(subscriptionPath(account, id) + "/history"));
    assertThat(events(history))
        .containsExactly("SUBSCRIPTION_CREATED", "REMINDER_SENT", "PAYMENT_SUCCEEDED");
    assertThat(
            StreamSupport.stream(history.get("items").spliterator(), false)
                .map(e -> e.get("version").asLong())
                .toList())
        .containsExactly(1L, 2L, 3L);

    BillingSchedule schedule =
        BillingSchedule.startingOnOrAfter(start, start.getDayOfMonth(), Term.MONTHLY, "UTC", 2);
    JsonNode subscription = body(API.get(subscriptionPath(account, id)));
    assertThat(subscription.get("cycle").asLong()).isEqualTo(2);
    assertThat(subscription.get("nextPaymentDate").asText())
        .isEqualTo(schedule.dueDate(2).toString());
    assertThat(subscription.get("nextReminderDate").asText())
        .isEqualTo(schedule.reminderDate(2).toString());
    assertThat(subscription.get("lastPaymentAt").asText())
        .isEqualTo(Timestamps.instant(charge.at()));
    assertThat(subscription.get("version").asLong()).isEqualTo(3);

    // One cycle later: two receipts, newest first, one per page.
    sleepUntil(schedule.dueDate(2).plusDays(1));
    SandboxCharge second = chargeOf(id, 2);
    JsonNode page1 = body(API.get("/v1/accounts/" + account + "/receipts?limit=1"));
    JsonNode page2 =
        body(
            API.get(
                "/v1/accounts/"
                    + account
                    + "/receipts?limit=1&pageToken="
                    + page1.get("nextPageToken").asText()));
    assertThat(page1.get("items").get(0).get("cycle").asLong()).isEqualTo(2);
    assertThat(page1.get("items").get(0).get("transactionId").asText())
        .isEqualTo(second.transactionId());
    assertThat(page2.get("items")).hasSize(1);
    assertThat(page2.get("items").get(0).get("cycle").asLong()).isEqualTo(1);
    // DynamoDB cannot tell a full page from the last one: a full last page may be followed by an
    // empty one, which ends the list.
    if (!page2.get("nextPageToken").isNull()) {
      JsonNode page3 =
          body(
              API.get(
                  "/v1/accounts/"
                      + account
                      + "/receipts?limit=1&pageToken="
                      + page2.get("nextPageToken").asText()));
      assertThat(page3.get("items")).isEmpty();
      assertThat(page3.get("nextPageToken").isNull()).isTrue();
    }
  }

  @Test
  void expiredReceiptsAreHiddenByTheApisClock() {
    String account = newAccount();
    LocalDate start = today().plusDays(1);
    String id =
        API.created(
                account,
                with(
                    with(subscriptionBody(), "billingDay", start.getDayOfMonth()),
                    "startDate",
                    start.toString()))
            .get("subscriptionId")
            .asText();
    sleepUntil(start.plusDays(1));
    assertThat(body(API.get("/v1/accounts/" + account + "/receipts")).get("items")).hasSize(1);
    assertThat(
            API.request(subscriptionPath(account, id) + "/cancel")
                .post(Entity.json("{}"))
                .getStatus())
        .isEqualTo(200);
    Instant processedAt = chargeOf(id, 1).at();

    API.stack().env.sleep(Duration.ofDays(370));

    assertThat(body(API.get("/v1/accounts/" + account + "/receipts")).get("items")).isEmpty();
    // Still stored (DynamoDB's TTL sweep lags): it is the API's clock that hides it.
    assertThat(
            API.stack()
                .store
                .getReceiptsByAccount(account, processedAt, PageRequest.first(10))
                .items())
        .hasSize(1);
  }

  @Test
  void aReplayIsAnsweredFromTheStoreEvenAfterItsStartDateHasPassed() {
    String account = newAccount();
    LocalDate start = today().plusDays(1);
    var request =
        with(
            with(subscriptionBody(), "billingDay", start.getDayOfMonth()),
            "startDate",
            start.toString());
    JsonNode created = body(API.createSubscription(account, request, "late-retry"));

    sleepUntil(start.plusDays(2));
    var replay = API.createSubscription(account, request, "late-retry");

    assertThat(replay.getStatus()).isEqualTo(200);
    JsonNode replayed = body(replay);
    assertThat(replayed.get("subscriptionId").asText())
        .isEqualTo(created.get("subscriptionId").asText());
    assertThat(replayed.get("cycle").asLong()).isEqualTo(2);
    // Without the key, the same body is a new request, and its start date is now in the past.
    assertThat(API.createSubscription(account, request, null).getStatus()).isEqualTo(400);
  }

  private static LocalDate today() {
    return LocalDate.ofInstant(API.stack().clock.instant(), ZoneOffset.UTC);
  }

  private static void sleepUntil(LocalDate date) {
    Instant target = date.atStartOfDay(ZoneOffset.UTC).toInstant();
    API.stack().env.sleep(Duration.between(API.stack().clock.instant(), target));
  }

  /** The sandbox's record of the successful charge of one cycle of a subscription. */
  private static SandboxCharge chargeOf(String subscriptionId, long cycle) {
    List<SandboxCharge> charges =
        API.stack().gateway.charges().stream()
            .filter(
                c -> c.idempotencyKey().startsWith("charge:" + subscriptionId + ":" + cycle + ":"))
            .filter(c -> c.outcome() == SandboxCharge.Outcome.SUCCEEDED)
            .toList();
    assertThat(charges).hasSize(1);
    return charges.get(0);
  }

  private static List<String> events(JsonNode history) {
    return StreamSupport.stream(history.get("items").spliterator(), false)
        .map(e -> e.get("event").asText())
        .toList();
  }
}
