package dev.billing.api.lifecycle;

import static dev.billing.api.support.ApiTestSupport.assertInvalidField;
import static dev.billing.api.support.ApiTestSupport.assertProblem;
import static dev.billing.api.support.ApiTestSupport.body;
import static dev.billing.api.support.ApiTestSupport.newAccount;
import static dev.billing.api.support.ApiTestSupport.subscriptionBody;
import static dev.billing.api.support.ApiTestSupport.subscriptionPath;
import static dev.billing.api.support.ApiTestSupport.with;
import static dev.billing.api.support.LifecycleCalls.usd;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.activities.payments.sandbox.SandboxCharge;
import dev.billing.api.ApiConfiguration;
import dev.billing.api.support.ApiTestSupport;
import dev.billing.api.support.LifecycleCalls;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.Response;
import java.time.LocalDate;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * POST .../cancel through the real workflow: now, at period end, or now with a pro-rata refund of
 * the unused days, and what each records. One shared clock (from 2026-03-10) that only moves
 * forward: each test has its own window of dates, in order.
 */
@Tag("e2e")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CancelModesTest {

  static final ApiTestSupport API = ApiTestSupport.start();

  @RegisterExtension static final DropwizardAppExtension<ApiConfiguration> APP = API.extension();

  static final LifecycleCalls CALLS = new LifecycleCalls(API);

  // ---- Window: today (2026-03-10), before the clock moves: cancelling now, what it records ----

  @Test
  @Order(0)
  void periodsListWhatHappenedToEachCycle() {
    String account = newAccount();
    String id =
        API.created(account, with(subscriptionBody(), "amount", "4.50"))
            .get("subscriptionId")
            .asText();
    // The first charge, not made yet, is listed as what it will be.
    JsonNode scheduled = body(API.get(subscriptionPath(account, id) + "/periods")).get("items");
    assertThat(scheduled).hasSize(1);
    assertThat(scheduled.get(0).get("status").asText()).isEqualTo("SCHEDULED");
    assertThat(scheduled.get(0).get("dueDate").asText()).isEqualTo("2026-03-20");
    assertThat(scheduled.get(0).get("amount").asText()).isEqualTo("4.50");

    API.request(subscriptionPath(account, id) + "/cancel").post(Entity.json("{}"));

    JsonNode periods = body(API.get(subscriptionPath(account, id) + "/periods"));
    assertThat(periods.get("items")).hasSize(1);
    JsonNode period = periods.get("items").get(0);
    assertThat(period.get("cycle").asLong()).isEqualTo(1);
    assertThat(period.get("status").asText()).isEqualTo("CANCELLED");
    assertThat(period.get("dueDate").asText()).isEqualTo("2026-03-20");
    assertThat(period.get("amount").asText()).isEqualTo("4.50");
    assertThat(period.get("currency").asText()).isEqualTo("USD");
    assertThat(period.get("attempts").asInt()).isZero();
    assertThat(period.get("transactionId").isNull()).isTrue();
    assertThat(periods.get("nextPageToken").isNull()).isTrue();
  }

  @Test
  @Order(0)
  void cancellingEndsTheSubscriptionOnceAndThenConflicts() {
    String account = newAccount();
    String id = API.created(account, subscriptionBody()).get("subscriptionId").asText();

    Response cancelled =
        API.request(subscriptionPath(account, id) + "/cancel")
            .post(Entity.json("{\"reason\":\"too expensive\"}"));
    JsonNode view = body(cancelled);

    assertThat(cancelled.getStatus()).as("%s", view).isEqualTo(200);
    assertThat(view.get("subscriptionId").asText()).isEqualTo(id);
    assertThat(view.get("status").asText()).isEqualTo("CANCELLED");
    assertThat(view.get("nextPaymentDate").isNull()).isTrue();
    assertThat(view.get("nextReminderDate").isNull()).isTrue();
    assertThat(body(API.get(subscriptionPath(account, id)))).isEqualTo(view);

    JsonNode history = body(API.get(subscriptionPath(account, id) + "/history"));
    assertThat(
            StreamSupport.stream(history.get("items").spliterator(), false)
                .map(e -> e.get("event").asText())
                .toList())
        .containsExactly("SUBSCRIPTION_CREATED", "SUBSCRIPTION_CANCELLED");
    assertThat(history.get("items").get(1).get("actor").asText())
        .isEqualTo(API.operatorPrincipal());
    assertThat(history.get("items").get(1).get("detail").asText()).isEqualTo("too expensive");
    assertThat(history.get("items").get(1).get("version").asLong()).isEqualTo(2);
    assertThat(
            assertProblem(API.get(subscriptionPath(account, id) + "/upcoming"), 404)
                .get("detail")
                .asText())
        .isEqualTo("No upcoming charge: the subscription is CANCELLED: nothing more is charged");

    Response again = API.request(subscriptionPath(account, id) + "/cancel").post(Entity.json("{}"));
    JsonNode problem = assertProblem(again, 409);
    assertThat(problem.get("type").asText())
        .isEqualTo("https://billing.dev/problems/transition-not-allowed");
  }

  @Test
  @Order(0)
  void cancellingWithoutABodyWorks() {
    String account = newAccount();
    String id = API.created(account, subscriptionBody()).get("subscriptionId").asText();

    Response cancelled =
        API.request(subscriptionPath(account, id) + "/cancel").post(Entity.json(""));

    assertThat(cancelled.getStatus()).isEqualTo(200);
    assertThat(body(cancelled).get("status").asText()).isEqualTo("CANCELLED");
  }

  @Test
  @Order(0)
  void aCancelledSubscriptionIsNoLongerDue() {
    String account = newAccount();
    String id =
        API.created(
                account, with(with(subscriptionBody(), "billingDay", 7), "startDate", "2026-04-01"))
            .get("subscriptionId")
            .asText();
    assertThat(mine(body(API.get("/v1/billing/due-payments?date=2026-04-07")), account)).hasSize(1);

    API.request(subscriptionPath(account, id) + "/cancel").post(Entity.json("{}"));

    assertThat(mine(body(API.get("/v1/billing/due-payments?date=2026-04-07")), account)).isEmpty();
    assertThat(mine(body(API.get("/v1/billing/due-reminders?date=2026-04-04")), account)).isEmpty();
  }

  @Test
  @Order(0)
  void aSubscriptionCancelledBeforeItsFirstPaymentIsNotReactivated() {
    String account = newAccount();
    String id = API.created(account, subscriptionBody()).get("subscriptionId").asText();
    API.request(subscriptionPath(account, id) + "/cancel").post(Entity.json("{}"));

    JsonNode refused =
        assertProblem(
            API.postJson(subscriptionPath(account, id) + "/reactivate", "{}", "back-unpaid"), 409);

    assertThat(refused.get("type").asText()).isEqualTo("https://billing.dev/problems/never-paid");
    assertThat(CALLS.subscription(account, id).get("status").asText()).isEqualTo("CANCELLED");
  }

  /** Window March to April 2026. */
  @Test
  @Order(1)
  void atPeriodEndStaysActiveUntilThePaidThroughDateThenEndsWithoutAnotherCharge() {
    String account = newAccount();
    // Monthly on the 20th from 2026-03-20, 9.99 USD, reminder 3 days before.
    String id = API.created(account, subscriptionBody()).get("subscriptionId").asText();
    CALLS.sleepUntil(LocalDate.parse("2026-03-21"));

    JsonNode scheduled =
        CALLS.ok(account, id, "cancel", "{\"atPeriodEnd\":true,\"reason\":\"moving abroad\"}");

    assertThat(scheduled.get("status").asText()).isEqualTo("ACTIVE");
    assertThat(scheduled.get("cancelsOn").asText()).isEqualTo("2026-04-20");
    assertThat(CALLS.subscription(account, id)).isEqualTo(scheduled);
    // Already on its way out: a second cancellation at period end is not a transition.
    assertProblem(CALLS.post(account, id, "cancel", "{\"atPeriodEnd\":true}"), 409);

    CALLS.sleepUntil(LocalDate.parse("2026-04-19"));
    assertThat(CALLS.subscription(account, id).get("status").asText()).isEqualTo("ACTIVE");

    CALLS.sleepUntil(LocalDate.parse("2026-04-21"));

    JsonNode ended = CALLS.subscription(account, id);
    assertThat(ended.get("status").asText()).isEqualTo("CANCELLED");
    assertThat(ended.get("nextPaymentDate").isNull()).isTrue();
    assertThat(ended.get("nextReminderDate").isNull()).isTrue();
    // Cycle 1 paid on Mar 20; nothing at all was attempted for Apr 20, and no reminder went out for
    // it.
    assertThat(CALLS.charges(id))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.cycle()).isEqualTo(1L);
              assertThat(c.outcome()).isEqualTo(SandboxCharge.Outcome.SUCCEEDED);
              assertThat(c.amount()).isEqualTo(usd("9.99"));
            });
    assertThat(CALLS.cyclesOf(account, id, "REMINDER_SENT")).containsExactly(1L);
    assertThat(CALLS.periods(account, id).get(1L).get("status").asText()).isEqualTo("COMPLETED");
    assertThat(CALLS.refunds(id)).isEmpty();
    var history = CALLS.history(account, id);
    assertThat(history).anyMatch(e -> e.startsWith("CANCELLATION_SCHEDULED API "));
    assertThat(history.get(history.size() - 1)).startsWith("SUBSCRIPTION_CANCELLED ");
    assertProblem(CALLS.post(account, id, "cancel", "{}"), 409);
  }

  /**
   * Window May to June 2026. 31.00 USD for May 20 to June 19 (31 days), cancelled on May 21: the
   * cancellation day counts as used, so the 29 days from May 22 to June 19 are refunded, 1.00 USD
   * each (rounded down when not exact).
   */
  @Test
  @Order(2)
  void nowWithRefundUnusedRefundsTheUnusedDaysProRata() {
    String account = newAccount();
    String id =
        API.created(
                account,
                with(
                    with(with(subscriptionBody(), "startDate", "2026-05-20"), "billingDay", 20),
                    "amount",
                    "31.00"))
            .get("subscriptionId")
            .asText();
    CALLS.sleepUntil(LocalDate.parse("2026-05-21"));
    SandboxCharge paid = CALLS.succeeded(id).get(0);

    JsonNode cancelled = CALLS.ok(account, id, "cancel", "{\"refundUnused\":true}");

    assertThat(cancelled.get("status").asText()).isEqualTo("CANCELLED");
    assertThat(cancelled.get("nextPaymentDate").isNull()).isTrue();
    JsonNode period = CALLS.periods(account, id).get(1L);
    assertThat(period.get("status").asText()).isEqualTo("REFUNDED");
    assertThat(period.get("amount").asText()).isEqualTo("31.00");
    assertThat(period.get("refundedAmount").asText()).isEqualTo("29.00");
    assertThat(CALLS.refunds(id))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.transactionId()).isEqualTo(paid.transactionId());
              assertThat(r.amount()).isEqualTo(usd("29.00"));
            });
  }

  /** Window July 2026: an immediate cancellation without refund keeps the paid period as it was. */
  @Test
  @Order(3)
  void nowWithoutRefundEndsAtOnceAndRefundsNothing() {
    String account = newAccount();
    String id =
        API.created(
                account, with(with(subscriptionBody(), "startDate", "2026-07-01"), "billingDay", 1))
            .get("subscriptionId")
            .asText();
    CALLS.sleepUntil(LocalDate.parse("2026-07-02"));

    JsonNode cancelled =
        CALLS.ok(account, id, "cancel", "{\"atPeriodEnd\":false,\"refundUnused\":false}");

    assertThat(cancelled.get("status").asText()).isEqualTo("CANCELLED");
    assertThat(cancelled.get("cancelsOn").isNull()).isTrue();
    assertThat(CALLS.periods(account, id).get(1L).get("status").asText()).isEqualTo("COMPLETED");
    assertThat(CALLS.periods(account, id).get(1L).get("refundedAmount").isNull()).isTrue();
    assertThat(CALLS.refunds(id)).isEmpty();

    // Paid through July 31 and cancelled: reactivated by its restarted workflow, answered once by
    // its key, nothing charged before cycle 2's date.
    String path = subscriptionPath(account, id) + "/reactivate";
    Response back = API.postJson(path, "{\"reason\":\"changed my mind\"}", "back-e2e");
    JsonNode view = body(back);
    assertThat(back.getStatus()).as("%s", view).isEqualTo(200);
    assertThat(view.get("status").asText()).isEqualTo("ACTIVE");
    assertThat(view.get("nextPaymentDate").asText()).isEqualTo("2026-08-01");
    assertThat(CALLS.charges(id)).hasSize(1);
    JsonNode history = body(API.get(subscriptionPath(account, id) + "/history")).get("items");
    assertThat(history.get(history.size() - 1).get("event").asText())
        .isEqualTo("SUBSCRIPTION_REACTIVATED");
    JsonNode events = body(API.get("/v1/events?subscriptionId=" + id)).get("items");
    assertThat(events.get(0).get("type").asText()).isEqualTo("subscription.reactivated");
    Response retry = API.postJson(path, "{\"reason\":\"changed my mind\"}", "back-e2e");
    assertThat(retry.getStatus()).isEqualTo(200);
    JsonNode notCancelled = assertProblem(API.postJson(path, "{}", "back-e2e-2"), 409);
    assertThat(notCancelled.get("detail").asText()).isEqualTo("subscription is not cancelled.");
  }

  /**
   * No time moves from here on; subscriptions start 10 days ahead, so no reminder is due either.
   */
  @Test
  @Order(10)
  void refundUnusedNeedsAnImmediateCancellation() {
    String account = newAccount();
    String id =
        API.created(
                account,
                with(
                    with(subscriptionBody(), "startDate", CALLS.today().plusDays(10).toString()),
                    "billingDay",
                    CALLS.today().plusDays(10).getDayOfMonth()))
            .get("subscriptionId")
            .asText();

    String message =
        assertInvalidField(
            CALLS.post(account, id, "cancel", "{\"atPeriodEnd\":true,\"refundUnused\":true}"),
            "refundUnused");

    assertThat(message).startsWith("refundUnused applies only to an immediate cancellation");
    assertThat(CALLS.subscription(account, id).get("version").asLong()).isEqualTo(1);
    assertInvalidField(
        CALLS.post(account, id, "cancel", "{\"atPeriodEnd\":\"yes\"}"), "atPeriodEnd");
    assertInvalidField(
        CALLS.post(account, id, "cancel", "{\"reason\":\"" + "x".repeat(501) + "\"}"), "reason");
    assertThat(CALLS.subscription(account, id).get("status").asText()).isEqualTo("INCOMPLETE");
  }

  /** Due lists span all accounts of the shared stack; keep this test's. */
  private static List<JsonNode> mine(JsonNode page, String account) {
    assertThat(page.get("nextPageToken").isNull()).as("one page holds this test's dates").isTrue();
    return StreamSupport.stream(page.get("items").spliterator(), false)
        .filter(item -> item.get("accountId").asText().equals(account))
        .toList();
  }
}
