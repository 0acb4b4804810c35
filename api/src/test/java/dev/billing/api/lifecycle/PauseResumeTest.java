package dev.billing.api.lifecycle;

import static dev.billing.api.support.ApiTestSupport.assertProblem;
import static dev.billing.api.support.ApiTestSupport.newAccount;
import static dev.billing.api.support.ApiTestSupport.subscriptionBody;
import static dev.billing.api.support.ApiTestSupport.with;
import static dev.billing.api.support.LifecycleCalls.usd;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.activities.payments.sandbox.SandboxCharge;
import dev.billing.api.ApiConfiguration;
import dev.billing.api.support.ApiTestSupport;
import dev.billing.api.support.LifecycleCalls;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * POST .../pause and .../resume through the real workflow. The tests share one clock that only
 * moves forward (it starts on 2026-03-10), so each works in its own window of dates, in order.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("e2e")
class PauseResumeTest {

  static final ApiTestSupport API = ApiTestSupport.start();

  @RegisterExtension static final DropwizardAppExtension<ApiConfiguration> APP = API.extension();

  static final LifecycleCalls CALLS = new LifecycleCalls(API);

  private static Map<String, Object> monthlyFrom(String startDate, int billingDay) {
    return with(with(subscriptionBody(), "startDate", startDate), "billingDay", billingDay);
  }

  /** Window March to July 2026. */
  @Test
  @Order(1)
  void pausingTwoCyclesOfA31stAnchoredSubscriptionSkipsExactlyThoseAndBillsOnTheClampedDate() {
    String account = newAccount();
    String id = API.created(account, monthlyFrom("2026-03-31", 31)).get("subscriptionId").asText();
    CALLS.sleepUntil(LocalDate.parse("2026-04-01"));
    assertThat(CALLS.periods(account, id).get(1L).get("status").asText()).isEqualTo("COMPLETED");

    JsonNode paused = CALLS.ok(account, id, "pause", "{\"cycles\":2,\"reason\":\"travelling\"}");

    assertThat(paused.get("status").asText()).isEqualTo("PAUSED");
    assertThat(paused.get("pause").get("since").asText()).isEqualTo("2026-04-01");
    // Cycles 2 (Apr 30) and 3 (May 31) are skipped; billing restarts with cycle 4 on June 30.
    assertThat(paused.get("pause").get("resumesOn").asText()).isEqualTo("2026-06-30");
    assertThat(paused.get("pause").get("reason").asText()).isEqualTo("travelling");
    assertThat(CALLS.subscription(account, id)).isEqualTo(paused);

    CALLS.sleepUntil(LocalDate.parse("2026-07-01"));

    var periods = CALLS.periods(account, id);
    assertThat(periods.keySet()).containsExactly(1L, 2L, 3L, 4L, 5L);
    assertPeriod(periods.get(1L), "2026-03-31", "COMPLETED");
    assertPeriod(periods.get(5L), "2026-07-31", "SCHEDULED");
    assertPeriod(periods.get(2L), "2026-04-30", "PAUSED_SKIPPED");
    assertPeriod(periods.get(3L), "2026-05-31", "PAUSED_SKIPPED");
    assertPeriod(periods.get(4L), "2026-06-30", "COMPLETED");
    assertThat(periods.get(4L).get("amount").asText()).isEqualTo("9.99");
    assertThat(CALLS.succeeded(id)).extracting(SandboxCharge::cycle).containsExactly(1L, 4L);
    assertThat(CALLS.succeeded(id)).extracting(SandboxCharge::amount).containsOnly(usd("9.99"));
    assertThat(CALLS.charges(id)).hasSize(2);
    // No reminder for a skipped period.
    assertThat(CALLS.cyclesOf(account, id, "REMINDER_SENT")).containsExactly(1L, 4L);

    JsonNode after = CALLS.subscription(account, id);
    assertThat(after.get("status").asText()).isEqualTo("ACTIVE");
    assertThat(after.get("pause").isNull()).isTrue();
    assertThat(after.get("cycle").asLong()).isEqualTo(5);
    assertThat(after.get("nextPaymentDate").asText()).isEqualTo("2026-07-31");
    cancel(account, id);
  }

  /** Window August to October 2026. */
  @Test
  @Order(2)
  void anOpenEndedPauseSkipsUntilResumedAndBillingRestartsOnTheNextAnchorDate() {
    String account = newAccount();
    String id = API.created(account, monthlyFrom("2026-08-15", 15)).get("subscriptionId").asText();
    CALLS.sleepUntil(LocalDate.parse("2026-08-16"));

    JsonNode paused = CALLS.ok(account, id, "pause", "{}");

    assertThat(paused.get("status").asText()).isEqualTo("PAUSED");
    assertThat(paused.get("pause").get("since").asText()).isEqualTo("2026-08-16");
    assertThat(paused.get("pause").get("resumesOn").isNull()).isTrue();
    // Nothing is due while an open-ended pause lasts.
    assertThat(paused.get("nextPaymentDate").isNull()).isTrue();
    assertThat(paused.get("nextReminderDate").isNull()).isTrue();
    // A second pause is not a transition.
    assertProblem(CALLS.post(account, id, "pause", "{\"cycles\":1}"), 409);

    CALLS.sleepUntil(LocalDate.parse("2026-09-20"));
    JsonNode resumed = CALLS.ok(account, id, "resume", null);

    assertThat(resumed.get("status").asText()).isEqualTo("ACTIVE");
    assertThat(resumed.get("pause").isNull()).isTrue();
    // Resumed on Sep 20: the next anchor date on or after it is Oct 15; Sep 15 was paused.
    assertThat(resumed.get("cycle").asLong()).isEqualTo(3);
    assertThat(resumed.get("nextPaymentDate").asText()).isEqualTo("2026-10-15");
    assertThat(resumed.get("nextReminderDate").asText()).isEqualTo("2026-10-12");
    assertPeriod(CALLS.periods(account, id).get(2L), "2026-09-15", "PAUSED_SKIPPED");
    JsonNode again = assertProblem(CALLS.post(account, id, "resume", null), 409);
    assertThat(again.get("type").asText())
        .isEqualTo("https://billing.dev/problems/transition-not-allowed");

    CALLS.sleepUntil(LocalDate.parse("2026-10-16"));

    var periods = CALLS.periods(account, id);
    assertThat(periods.keySet()).containsExactly(1L, 2L, 3L, 4L);
    assertPeriod(periods.get(3L), "2026-10-15", "COMPLETED");
    assertPeriod(periods.get(4L), "2026-11-15", "SCHEDULED");
    assertThat(CALLS.succeeded(id)).extracting(SandboxCharge::cycle).containsExactly(1L, 3L);
    assertThat(CALLS.history(account, id))
        .anyMatch(e -> e.startsWith("SUBSCRIPTION_PAUSED API "))
        .anyMatch(e -> e.startsWith("SUBSCRIPTION_RESUMED API "));
    cancel(account, id);
  }

  /** Window November 2026 to February 2027. */
  @Test
  @Order(3)
  void aPauseUntilADateEndsByItselfAndChargesTheFirstDueDateOnOrAfterIt() {
    String account = newAccount();
    String id = API.created(account, monthlyFrom("2026-11-05", 5)).get("subscriptionId").asText();
    CALLS.sleepUntil(LocalDate.parse("2026-11-06"));

    JsonNode paused = CALLS.ok(account, id, "pause", "{\"until\":\"2027-01-20\"}");

    assertThat(paused.get("status").asText()).isEqualTo("PAUSED");
    assertThat(paused.get("pause").get("resumesOn").asText()).isEqualTo("2027-01-20");

    CALLS.sleepUntil(LocalDate.parse("2027-02-06"));

    var periods = CALLS.periods(account, id);
    assertThat(periods.keySet()).containsExactly(1L, 2L, 3L, 4L, 5L);
    assertPeriod(periods.get(2L), "2026-12-05", "PAUSED_SKIPPED");
    assertPeriod(periods.get(5L), "2027-03-05", "SCHEDULED");
    assertPeriod(periods.get(3L), "2027-01-05", "PAUSED_SKIPPED");
    assertPeriod(periods.get(4L), "2027-02-05", "COMPLETED");
    assertThat(CALLS.succeeded(id)).extracting(SandboxCharge::cycle).containsExactly(1L, 4L);
    JsonNode after = CALLS.subscription(account, id);
    assertThat(after.get("status").asText()).isEqualTo("ACTIVE");
    assertThat(after.get("pause").isNull()).isTrue();
    cancel(account, id);
  }

  /**
   * No time moves from here on; subscriptions start 10 days ahead, so no reminder is due either.
   */
  @Test
  @Order(10)
  void aCancelledSubscriptionCannotBePausedOrResumed() {
    String account = newAccount();
    String id =
        API.created(
                account,
                monthlyFrom(
                    CALLS.today().plusDays(10).toString(),
                    CALLS.today().plusDays(10).getDayOfMonth()))
            .get("subscriptionId")
            .asText();
    cancel(account, id);

    JsonNode pause = assertProblem(CALLS.post(account, id, "pause", "{\"cycles\":1}"), 409);
    JsonNode resume = assertProblem(CALLS.post(account, id, "resume", null), 409);

    assertThat(pause.get("detail").asText())
        .isEqualTo("Subscription " + id + " is CANCELLED; it cannot be paused.");
    assertThat(resume.get("detail").asText())
        .isEqualTo("Subscription " + id + " is CANCELLED; it cannot be resumed.");
  }

  @Test
  @Order(11)
  void resumingASubscriptionThatIsNotPausedIsAConflictThatChangesNothing() {
    String account = newAccount();
    String id =
        API.created(
                account,
                monthlyFrom(
                    CALLS.today().plusDays(10).toString(),
                    CALLS.today().plusDays(10).getDayOfMonth()))
            .get("subscriptionId")
            .asText();

    JsonNode problem = assertProblem(CALLS.post(account, id, "resume", null), 409);

    assertThat(problem.get("type").asText())
        .isEqualTo("https://billing.dev/problems/transition-not-allowed");
    assertThat(CALLS.subscription(account, id).get("version").asLong()).isEqualTo(1);
    assertThat(CALLS.subscription(account, id).get("status").asText()).isEqualTo("INCOMPLETE");
  }

  @Test
  @Order(12)
  void unknownSubscriptionsAreNotFound() {
    String account = newAccount();
    assertProblem(CALLS.post(account, "sub_nothere", "pause", "{}"), 404);
    assertProblem(CALLS.post(account, "sub_nothere", "resume", null), 404);
  }

  private static void assertPeriod(JsonNode period, String dueDate, String status) {
    assertThat(period.get("dueDate").asText()).as("period %s", period).isEqualTo(dueDate);
    assertThat(period.get("status").asText()).as("period %s", period).isEqualTo(status);
  }

  /** Ends a test's subscription so it does not bill on in the background of later windows. */
  private static void cancel(String account, String id) {
    CALLS.ok(account, id, "cancel", "{}");
  }
}
