package dev.billing.api;

import static dev.billing.api.support.ApiTestSupport.body;
import static dev.billing.api.support.ApiTestSupport.newAccount;
import static dev.billing.api.support.ApiTestSupport.subscriptionBody;
import static dev.billing.api.support.ApiTestSupport.subscriptionPath;
import static dev.billing.api.support.ApiTestSupport.with;
import static dev.billing.api.support.ApiTestSupport.without;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.support.ApiTestSupport;
import dev.billing.domain.BillingIds;
import dev.billing.domain.Money;
import dev.billing.domain.Subscription;
import dev.billing.workflows.BillingSearchAttributes;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * POST /v1/accounts/{accountId}/subscriptions through the real workflow: the schedule it records,
 * defaults, storage, search attributes. The Idempotency-Key rules are
 * SubscriptionIdempotencyTest's.
 */
@Tag("e2e")
class SubscriptionCreateTest {

  static final ApiTestSupport API = ApiTestSupport.shared();

  @Test
  void createsTheSubscriptionWithTheScheduleOfItsStartDateBillingDayAndTimeZone() {
    String account = newAccount();
    Map<String, Object> request =
        with(
            with(
                with(
                    with(
                        with(with(subscriptionBody(), "amount", "19.90"), "currency", "EUR"),
                        "term",
                        "YEARLY"),
                    "billingDay",
                    31),
                "startDate",
                "2026-03-20"),
            "timeZone",
            "Europe/Paris");
    Instant before = API.stack().clock.instant();

    Response response = API.createSubscription(account, request, null);
    Instant after = API.stack().clock.instant();
    String text = response.readEntity(String.class);

    assertThat(response.getStatus()).as(text).isEqualTo(201);
    JsonNode created = ApiTestSupport.parse(text);
    String id = created.get("subscriptionId").asText();
    assertThat(id).matches("sub_[0-9a-f]{32}");
    assertThat(response.getLocation().getPath()).isEqualTo(subscriptionPath(account, id));
    assertThat(created.get("accountId").asText()).isEqualTo(account);
    assertThat(created.get("sku").asText()).isEqualTo("pro-monthly");
    assertThat(created.get("amount").asText()).isEqualTo("19.90");
    assertThat(created.get("currency").asText()).isEqualTo("EUR");
    assertThat(created.get("email").asText()).isEqualTo("ana@example.com");
    assertThat(created.get("paymentMethod").toString()).isEqualTo("{\"mask\":\"Visa •••• 4242\"}");
    assertThat(created.get("term").asText()).isEqualTo("YEARLY");
    assertThat(created.get("billingDay").asInt()).isEqualTo(31);
    assertThat(created.get("timeZone").asText()).isEqualTo("Europe/Paris");
    assertThat(created.get("reminderDaysBefore").asInt()).isEqualTo(3);
    assertThat(created.get("firstPaymentMonth").asText()).isEqualTo("2026-03");
    assertThat(created.get("status").asText()).isEqualTo("INCOMPLETE");
    assertThat(created.get("cycle").asLong()).isEqualTo(1);
    assertThat(created.get("nextPaymentDate").asText()).isEqualTo("2026-03-31");
    assertThat(created.get("nextReminderDate").asText()).isEqualTo("2026-03-28");
    assertThat(created.get("lastPaymentAt").isNull()).isTrue();
    assertThat(created.get("lastReminderAt").isNull()).isTrue();
    Instant createdAt = Instant.parse(created.get("createdAt").asText());
    assertThat(createdAt)
        .isBetween(before.truncatedTo(java.time.temporal.ChronoUnit.MILLIS), after);
    assertThat(created.get("version").asLong()).isEqualTo(1);
    // The gateway token is a credential-like reference: it never appears in a response.
    assertThat(text).doesNotContain("pm_card_visa");

    // Readable as soon as the create returned, identical to what the create answered.
    assertThat(body(API.get(subscriptionPath(account, id)))).isEqualTo(created);

    Subscription stored = API.stack().store.getSubscription(account, id).orElseThrow();
    assertThat(stored.price()).isEqualTo(new Money(1990, "EUR"));
    assertThat(stored.paymentMethod().token()).isEqualTo("pm_card_visa");
    assertThat(stored.requestHash()).matches("[0-9a-f]{64}");
    // The configured due window (api.yml dueWindow, default PT6H) is kept with the subscription.
    assertThat(stored.schedule().dueWindow()).isEqualTo(java.time.Duration.ofHours(6));

    var attributes =
        API.stack()
            .env
            .getWorkflowClient()
            .newUntypedWorkflowStub(BillingIds.workflowId(id))
            .describe()
            .getTypedSearchAttributes();
    assertThat(attributes.get(BillingSearchAttributes.ACCOUNT_ID)).isEqualTo(account);
    assertThat(attributes.get(BillingSearchAttributes.SKU)).isEqualTo("pro-monthly");
  }

  @Test
  void aBillingDayBeforeTheStartDateMovesTheFirstPaymentToTheNextMonth() {
    JsonNode created =
        API.created(
            newAccount(),
            with(with(subscriptionBody(), "billingDay", 5), "startDate", "2026-03-20"));

    assertThat(created.get("firstPaymentMonth").asText()).isEqualTo("2026-04");
    assertThat(created.get("nextPaymentDate").asText()).isEqualTo("2026-04-05");
    assertThat(created.get("nextReminderDate").asText()).isEqualTo("2026-04-02");
  }

  @Test
  void aBillingDayPastTheEndOfTheMonthFallsOnItsLastDay() {
    JsonNode created =
        API.created(
            newAccount(),
            with(
                with(with(subscriptionBody(), "billingDay", 31), "startDate", "2026-04-10"),
                "reminderDaysBefore",
                0));

    assertThat(created.get("nextPaymentDate").asText()).isEqualTo("2026-04-30");
    // reminderDaysBefore 0 turns reminders off: no reminder date, so GSI-1 does not list one.
    assertThat(created.get("nextReminderDate").isNull()).isTrue();
    assertThat(created.get("billingDay").asInt()).isEqualTo(31);
  }

  @Test
  void defaultsAreMonthlyInUtcFromTodayWithAThreeDayReminder() {
    Map<String, Object> minimal =
        without(
            without(
                without(without(without(subscriptionBody(), "term"), "billingDay"), "startDate"),
                "timeZone"),
            "reminderDaysBefore");

    JsonNode created = API.created(newAccount(), minimal);

    // The stack's clock starts at 2026-03-10T12:00Z: today in UTC is the 10th, due today.
    assertThat(created.get("term").asText()).isEqualTo("MONTHLY");
    assertThat(created.get("timeZone").asText()).isEqualTo("UTC");
    assertThat(created.get("reminderDaysBefore").asInt()).isEqualTo(3);
    assertThat(created.get("billingDay").asInt()).isEqualTo(10);
    assertThat(created.get("firstPaymentMonth").asText()).isEqualTo("2026-03");
    assertThat(created.get("nextPaymentDate").asText()).isEqualTo("2026-03-10");
  }

  @Test
  void todayIsTakenInTheSubscriptionsTimeZone() {
    Map<String, Object> request =
        with(
            without(without(subscriptionBody(), "billingDay"), "startDate"),
            "timeZone",
            "Pacific/Kiritimati");

    JsonNode created = API.created(newAccount(), request);

    // 2026-03-10T12:00Z is already 02:00 on the 11th at UTC+14.
    assertThat(created.get("billingDay").asInt()).isEqualTo(11);
    assertThat(created.get("nextPaymentDate").asText()).isEqualTo("2026-03-11");
  }
}
