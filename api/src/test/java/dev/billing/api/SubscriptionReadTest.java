package dev.billing.api;

import static dev.billing.api.support.ApiRequests.assertInvalidField;
import static dev.billing.api.support.ApiRequests.assertProblem;
import static dev.billing.api.support.ApiRequests.body;
import static dev.billing.api.support.ApiRequests.newAccount;
import static dev.billing.api.support.ApiRequests.subscriptionBody;
import static dev.billing.api.support.ApiRequests.subscriptionPath;
import static dev.billing.api.support.ApiRequests.subscriptionsPath;
import static dev.billing.api.support.ApiRequests.with;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.support.ResourceTestSupport;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Reads (one, list, history, periods, due dates) on the resources, over the store on DynamoDB
 * Local: paging, page tokens, 404s. Subscriptions are created through the fake workflow, which
 * records what the workflow records at creation; what a cancellation records is CancelModesTest's.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class SubscriptionReadTest {

  static final ResourceTestSupport API = ResourceTestSupport.start();

  @Test
  void listsAnAccountsSubscriptionsPageByPage() {
    String account = newAccount();
    List<String> created = new ArrayList<>();
    for (String sku : List.of("basic", "pro", "team")) {
      created.add(
          API.created(account, with(subscriptionBody(), "sku", sku))
              .get("subscriptionId")
              .asText());
    }
    API.created(newAccount(), subscriptionBody()); // another account's: never listed here

    JsonNode first = body(API.get(subscriptionsPath(account) + "?limit=2"));
    assertThat(first.get("items")).hasSize(2);
    assertThat(first.get("nextPageToken").isTextual()).isTrue();
    JsonNode second =
        body(
            API.get(
                subscriptionsPath(account)
                    + "?limit=2&pageToken="
                    + first.get("nextPageToken").asText()));

    assertThat(second.get("items")).hasSize(1);
    assertThat(second.get("nextPageToken").isNull()).isTrue();
    List<String> listed = new ArrayList<>(ids(first));
    listed.addAll(ids(second));
    assertThat(listed).containsExactlyInAnyOrderElementsOf(created);
    assertThat(body(API.get(subscriptionsPath(account))).get("items")).hasSize(3);
  }

  @Test
  void anEmptyAccountHasAnEmptyList() {
    JsonNode page = body(API.get(subscriptionsPath(newAccount())));

    assertThat(page.get("items")).isEmpty();
    assertThat(page.get("nextPageToken").isNull()).isTrue();
  }

  @Test
  void aTamperedPageTokenIsRejected() {
    String account = newAccount();
    API.created(account, with(subscriptionBody(), "sku", "basic"));
    API.created(account, with(subscriptionBody(), "sku", "pro"));
    String token =
        body(API.get(subscriptionsPath(account) + "?limit=1")).get("nextPageToken").asText();
    char last = token.charAt(token.length() - 2);
    String tampered =
        token.substring(0, token.length() - 2)
            + (last == 'A' ? 'B' : 'A')
            + token.charAt(token.length() - 1);

    Response response = API.get(subscriptionsPath(account) + "?limit=1&pageToken=" + tampered);

    assertInvalidField(response, "pageToken");
  }

  @Test
  void aPageTokenOfAnotherAccountIsRejected() {
    String account = newAccount();
    API.created(account, with(subscriptionBody(), "sku", "basic"));
    API.created(account, with(subscriptionBody(), "sku", "pro"));
    String token =
        body(API.get(subscriptionsPath(account) + "?limit=1")).get("nextPageToken").asText();

    Response response = API.get(subscriptionsPath(newAccount()) + "?limit=1&pageToken=" + token);

    assertInvalidField(response, "pageToken");
  }

  @Test
  void limitMustBeBetweenOneAndTwoHundred() {
    String path = subscriptionsPath(newAccount());

    assertInvalidField(API.get(path + "?limit=0"), "limit");
    assertInvalidField(API.get(path + "?limit=201"), "limit");
    assertInvalidField(API.get(path + "?limit=ten"), "limit");
    assertThat(API.get(path + "?limit=200").getStatus()).isEqualTo(200);
  }

  @Test
  void anUnknownSubscriptionIsNotFound() {
    String account = newAccount();

    for (String suffix : List.of("", "/history", "/periods", "/upcoming")) {
      JsonNode problem =
          assertProblem(API.get(subscriptionPath(account, "sub_missing") + suffix), 404);
      assertThat(problem.get("type").asText()).isEqualTo("https://billing.dev/problems/not-found");
    }
  }

  @Test
  void aSubscriptionOfAnotherAccountIsNotFound() {
    String owner = newAccount();
    String id = API.created(owner, subscriptionBody()).get("subscriptionId").asText();

    assertProblem(API.get(subscriptionPath(newAccount(), id)), 404);
    assertProblem(API.get(subscriptionPath(newAccount(), id) + "/history"), 404);
    assertProblem(API.get(subscriptionPath(newAccount(), id) + "/upcoming"), 404);
    assertThat(API.get(subscriptionPath(owner, id)).getStatus()).isEqualTo(200);
  }

  @Test
  void theUpcomingChargeIsTheFirstPeriodAtThePlansPrice() {
    String account = newAccount();
    JsonNode created = API.created(account, subscriptionBody());
    String id = created.get("subscriptionId").asText();

    JsonNode upcoming = body(API.get(subscriptionPath(account, id) + "/upcoming"));

    assertThat(upcoming.get("subscriptionId").asText()).isEqualTo(id);
    assertThat(upcoming.get("cycle").asLong()).isEqualTo(1);
    assertThat(upcoming.get("dueDate").asText()).isEqualTo(created.get("nextPaymentDate").asText());
    assertThat(upcoming.get("amount").asText()).isEqualTo("9.99");
    assertThat(upcoming.get("currency").asText()).isEqualTo("USD");
    assertThat(upcoming.get("carriedToNextCharge").isNull()).isTrue();
    assertThat(upcoming.get("lines")).hasSize(1);
    JsonNode plan = upcoming.get("lines").get(0);
    assertThat(plan.get("kind").asText()).isEqualTo("plan");
    assertThat(plan.get("amount").asText()).isEqualTo("9.99");
    assertThat(plan.get("description").asText())
        .startsWith("pro-monthly, " + created.get("nextPaymentDate").asText() + " to ");
  }

  @Test
  void historyStartsWithTheCreation() {
    String account = newAccount();
    JsonNode created = API.created(account, subscriptionBody());
    String id = created.get("subscriptionId").asText();

    JsonNode history = body(API.get(subscriptionPath(account, id) + "/history"));

    assertThat(history.get("items")).hasSize(1);
    JsonNode entry = history.get("items").get(0);
    assertThat(entry.get("event").asText()).isEqualTo("SUBSCRIPTION_CREATED");
    assertThat(entry.get("process").asText()).isEqualTo("API");
    assertThat(entry.get("version").asLong()).isEqualTo(1);
    assertThat(entry.get("cycle").asLong()).isEqualTo(1);
    assertThat(entry.get("actor").asText()).as("the principal that created it").startsWith("key:");
    assertThat(java.time.Instant.parse(entry.get("at").asText()))
        .isAfterOrEqualTo(java.time.Instant.parse(created.get("createdAt").asText()));
    assertThat(entry.get("snapshot")).isEqualTo(created);
    assertThat(entry.toString()).doesNotContain("pm_card_visa");
    assertThat(history.get("nextPageToken").isNull()).isTrue();
  }

  @Test
  void cancellingAnUnknownSubscriptionIsNotFound() {
    Response response =
        API.request(subscriptionPath(newAccount(), "sub_missing") + "/cancel")
            .post(Entity.json("{}"));

    assertProblem(response, 404);
  }

  @Test
  void duePaymentsAndRemindersListTheSubscriptionOnItsExactDates() {
    String account = newAccount();
    JsonNode created =
        API.created(
            account,
            with(
                with(
                    with(with(subscriptionBody(), "billingDay", 5), "startDate", "2026-04-01"),
                    "currency",
                    "JPY"),
                "amount",
                "1500"));
    String id = created.get("subscriptionId").asText();

    List<JsonNode> payments =
        mine(body(API.get("/v1/billing/due-payments?date=2026-04-05&limit=200")), account);
    assertThat(payments).hasSize(1);
    JsonNode payment = payments.get(0);
    assertThat(payment.get("subscriptionId").asText()).isEqualTo(id);
    assertThat(payment.get("sku").asText()).isEqualTo("pro-monthly");
    assertThat(payment.get("email").asText()).isEqualTo("ana@example.com");
    assertThat(payment.get("billingDay").asInt()).isEqualTo(5);
    assertThat(payment.get("amount").asText()).isEqualTo("1500");
    assertThat(payment.get("currency").asText()).isEqualTo("JPY");
    assertThat(payment.get("paymentMethod").get("mask").asText()).isEqualTo("Visa •••• 4242");
    assertThat(payment.get("nextPaymentDate").asText()).isEqualTo("2026-04-05");
    assertThat(payment.get("lastPaymentAt").isNull()).isTrue();
    assertThat(payment.toString()).doesNotContain("pm_card_visa");

    List<JsonNode> reminders =
        mine(body(API.get("/v1/billing/due-reminders?date=2026-04-02")), account);
    assertThat(reminders).hasSize(1);
    JsonNode reminder = reminders.get(0);
    assertThat(reminder.get("subscriptionId").asText()).isEqualTo(id);
    assertThat(reminder.get("nextReminderDate").asText()).isEqualTo("2026-04-02");
    assertThat(reminder.get("nextPaymentDate").asText()).isEqualTo("2026-04-05");
    assertThat(reminder.get("lastReminderAt").isNull()).isTrue();

    assertThat(mine(body(API.get("/v1/billing/due-payments?date=2026-04-04")), account)).isEmpty();
    assertThat(mine(body(API.get("/v1/billing/due-payments?date=2026-04-06")), account)).isEmpty();
    assertThat(mine(body(API.get("/v1/billing/due-reminders?date=2026-04-05")), account)).isEmpty();
  }

  private static List<String> ids(JsonNode page) {
    return StreamSupport.stream(page.get("items").spliterator(), false)
        .map(item -> item.get("subscriptionId").asText())
        .toList();
  }

  /** Due lists span all accounts of the shared stack; keep this test's. */
  private static List<JsonNode> mine(JsonNode page, String account) {
    assertThat(page.get("nextPageToken").isNull()).as("one page holds this test's dates").isTrue();
    return StreamSupport.stream(page.get("items").spliterator(), false)
        .filter(item -> item.get("accountId").asText().equals(account))
        .toList();
  }
}
