package dev.billing.api.lifecycle;

import static dev.billing.api.support.ApiRequests.assertInvalidField;
import static dev.billing.api.support.ApiRequests.assertProblem;
import static dev.billing.api.support.ApiRequests.newAccount;
import static dev.billing.api.support.ApiRequests.subscriptionBody;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.support.LifecycleCalls;
import dev.billing.api.support.ResourceTestSupport;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What POST .../billing-day and .../pause refuse before anything reaches the workflow. Today is
 * 2026-03-10 and the subscriptions are monthly on the 20th from 2026-03-20, not charged yet. How a
 * move changes the due dates is {@link BillingDayChangeTest}'s.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class BillingDayAndPauseInputTest {

  static final ResourceTestSupport API = ResourceTestSupport.start();

  static final LifecycleCalls CALLS = new LifecycleCalls(API);

  @Test
  void theBillingDayMustBeADayOfTheMonth() {
    String account = newAccount();
    String id = API.created(account, subscriptionBody()).get("subscriptionId").asText();

    for (String body :
        new String[] {
          "{\"billingDay\":0}",
          "{\"billingDay\":32}",
          "{\"billingDay\":\"5\"}",
          "{\"billingDay\":5.5}",
          "{}",
          "{\"billingDay\":null}"
        }) {
      assertInvalidField(CALLS.post(account, id, "billing-day", body), "billingDay");
    }
    assertThat(
            assertInvalidField(
                CALLS.post(account, id, "billing-day", "{\"billingDay\":32}"), "billingDay"))
        .isEqualTo("billingDay must be between 1 and 31");
    assertThat(CALLS.subscription(account, id).get("version").asLong()).isEqualTo(1);
    assertThat(API.stack().workflows.sentTo(id)).as("updates sent").isEmpty();
  }

  @Test
  void billingDayChangesOfUnknownOrCancelledSubscriptionsAreRefused() {
    String account = newAccount();
    assertProblem(CALLS.post(account, "sub_nothere", "billing-day", "{\"billingDay\":5}"), 404);
    String id = API.created(account, subscriptionBody()).get("subscriptionId").asText();
    API.stack().cancelled(account, id);

    assertThat(
            assertProblem(CALLS.post(account, id, "billing-day", "{\"billingDay\":5}"), 409)
                .get("detail")
                .asText())
        .isEqualTo(
            "Subscription " + id + " is CANCELLED; it cannot be moved to another billing day.");
  }

  @Test
  void aPauseTakesCyclesOrAFutureDateButNotBoth() {
    String account = newAccount();
    String id = API.created(account, subscriptionBody()).get("subscriptionId").asText();

    assertThat(
            assertInvalidField(
                CALLS.post(account, id, "pause", "{\"cycles\":2,\"until\":\"2026-06-01\"}"),
                "until"))
        .isEqualTo("give cycles or until, not both");
    assertThat(assertInvalidField(CALLS.post(account, id, "pause", "{\"cycles\":0}"), "cycles"))
        .isEqualTo("cycles must be between 1 and 36");
    assertInvalidField(CALLS.post(account, id, "pause", "{\"cycles\":37}"), "cycles");
    assertInvalidField(CALLS.post(account, id, "pause", "{\"cycles\":\"2\"}"), "cycles");
    assertThat(
            assertInvalidField(
                CALLS.post(account, id, "pause", "{\"until\":\"2026-02-30\"}"), "until"))
        .isEqualTo("until must be a date such as \"2026-01-31\"");
    assertThat(
            assertInvalidField(
                CALLS.post(account, id, "pause", "{\"until\":\"2026-03-10\"}"), "until"))
        .isEqualTo("until must be after today (2026-03-10 in UTC)");
    assertThat(
            assertInvalidField(
                CALLS.post(account, id, "pause", "{\"until\":\"2029-03-11\"}"), "until"))
        .isEqualTo("until must be at most 36 months after today (2026-03-10)");
    assertInvalidField(
        CALLS.post(account, id, "pause", "{\"reason\":\"" + "x".repeat(501) + "\"}"), "reason");
    assertInvalidField(CALLS.post(account, id, "pause", "{\"weeks\":2}"), "weeks");

    JsonNode unchanged = CALLS.subscription(account, id);
    assertThat(unchanged.get("status").asText()).isEqualTo("INCOMPLETE");
    assertThat(unchanged.get("version").asLong()).isEqualTo(1);
    assertThat(API.stack().workflows.sentTo(id)).as("updates sent").isEmpty();
  }

  @Test
  void aMalformedSubscriptionIdIsRejectedOnEveryChange() {
    String account = newAccount();
    for (String action :
        new String[] {
          "pause",
          "resume",
          "plan",
          "pay",
          "cancel",
          "billing-day",
          "periods/1/waive",
          "periods/1/refund"
        }) {
      String body =
          switch (action) {
            case "plan" ->
                "{\"sku\":\"team\",\"amount\":\"1.00\",\"currency\":\"USD\",\"effective\":\"now\"}";
            case "billing-day" -> "{\"billingDay\":5}";
            default -> "{}";
          };
      assertInvalidField(CALLS.post(account, "sub$1", action, body), "subscriptionId");
    }
  }
}
