package dev.billing.api.lifecycle;

import static dev.billing.api.support.ApiRequests.body;
import static dev.billing.api.support.ApiTestSupport.assertInvalidField;
import static dev.billing.api.support.ApiTestSupport.assertProblem;
import static dev.billing.api.support.ApiTestSupport.newAccount;
import static dev.billing.api.support.ApiTestSupport.subscriptionBody;
import static dev.billing.api.support.ApiTestSupport.with;
import static dev.billing.api.support.LifecycleCalls.usd;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.activities.payments.sandbox.SandboxCharge;
import dev.billing.activities.payments.sandbox.SandboxRefund;
import dev.billing.api.ApiConfiguration;
import dev.billing.api.resources.PathIds;
import dev.billing.api.support.ApiRequests;
import dev.billing.api.support.ApiTestSupport;
import dev.billing.api.support.LifecycleCalls;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * POST .../pay (manual repayment), .../periods/{periodId}/waive and .../periods/{periodId}/refund.
 * One shared clock (from 2026-03-10) that only moves forward: each test has its own window of
 * dates, in order. Unpaid periods come from the sandbox's declining test payment methods.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("e2e")
class PeriodOperationsTest {

  static final ApiTestSupport API = ApiTestSupport.start();

  @RegisterExtension static final DropwizardAppExtension<ApiConfiguration> APP = API.extension();

  static final LifecycleCalls CALLS = new LifecycleCalls(API);

  /** Paid on March 20 (window 1), its April 20 charge declined in window 2. */
  static String paidBefore;

  static String paidBeforeAccount;

  private static String create(String account, String startDate, String paymentMethod) {
    LocalDate start = LocalDate.parse(startDate);
    return API.created(
            account,
            with(
                with(
                    with(subscriptionBody(), "startDate", startDate),
                    "billingDay",
                    start.getDayOfMonth()),
                "paymentMethod",
                paymentMethod))
        .get("subscriptionId")
        .asText();
  }

  /**
   * Noon of a date (UTC): after that day's charge, before the first dunning retry (a day later).
   */
  private static Instant noonOf(String date) {
    return Instant.parse(date + "T12:00:00Z");
  }

  /** Window March 20 2026: full and partial refunds of a collected period. */
  @Test
  @Order(1)
  void refundsAPeriodInFullOrInPartsButNeverMoreThanWasCollected() {
    String account = newAccount();
    String full = create(account, "2026-03-20", "pm_card_visa");
    String parts = create(account, "2026-03-20", "pm_card_visa");
    paidBeforeAccount = newAccount();
    paidBefore = create(paidBeforeAccount, "2026-03-20", "pm_card_visa");
    CALLS.sleepUntil(noonOf("2026-03-20"));
    SandboxCharge fullCharge = CALLS.succeeded(full).get(0);
    SandboxCharge partsCharge = CALLS.succeeded(parts).get(0);

    JsonNode refunded =
        CALLS.ok(account, full, "periods/1/refund", "{\"reason\":\"duplicate order\"}");

    assertThat(refunded.get("status").asText()).isEqualTo("ACTIVE");
    JsonNode period = CALLS.periods(account, full).get(1L);
    assertThat(period.get("status").asText()).isEqualTo("REFUNDED");
    assertThat(period.get("amount").asText()).isEqualTo("9.99");
    assertThat(period.get("refundedAmount").asText()).isEqualTo("9.99");
    assertThat(CALLS.refunds(full))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.transactionId()).isEqualTo(fullCharge.transactionId());
              assertThat(r.amount()).isEqualTo(usd("9.99"));
            });
    // Nothing is left to refund.
    assertProblem(CALLS.post(account, full, "periods/1/refund", "{}"), 409);
    assertThat(CALLS.refunds(full)).hasSize(1);
    assertThat(CALLS.history(account, full)).anyMatch(e -> e.startsWith("PAYMENT_REFUNDED API 1"));

    CALLS.ok(account, parts, "periods/1/refund", "{\"amount\":\"4.00\"}");
    assertThat(CALLS.periods(account, parts).get(1L).get("refundedAmount").asText())
        .isEqualTo("4.00");
    assertThat(CALLS.periods(account, parts).get(1L).get("status").asText()).isEqualTo("REFUNDED");
    // 5.99 is left: 6.00 is too much, and nothing moves.
    assertProblem(CALLS.post(account, parts, "periods/1/refund", "{\"amount\":\"6.00\"}"), 409);
    CALLS.ok(account, parts, "periods/1/refund", "{\"amount\":\"5.99\"}");
    assertThat(CALLS.periods(account, parts).get(1L).get("refundedAmount").asText())
        .isEqualTo("9.99");
    assertThat(CALLS.refunds(parts))
        .extracting(SandboxRefund::amount)
        .containsExactly(usd("4.00"), usd("5.99"));
    assertThat(CALLS.refunds(parts))
        .extracting(SandboxRefund::transactionId)
        .containsOnly(partsCharge.transactionId());

    // Bad amounts are the request's fault, whatever the period.
    assertThat(
            assertInvalidField(
                CALLS.post(account, parts, "periods/1/refund", "{\"amount\":\"1.001\"}"), "amount"))
        .isEqualTo("amount has more decimals than USD allows (2)");
    assertInvalidField(
        CALLS.post(account, parts, "periods/1/refund", "{\"amount\":\"-1.00\"}"), "amount");
    assertInvalidField(
        CALLS.post(account, parts, "periods/1/refund", "{\"amount\":\"1e2\"}"), "amount");
    // Period 2 is not billed yet; period 3 cannot exist yet.
    assertProblem(CALLS.post(account, parts, "periods/2/refund", "{}"), 404);
    assertProblem(CALLS.post(account, parts, "periods/3/refund", "{}"), 404);
    CALLS.ok(account, full, "cancel", "{}");
    CALLS.ok(account, parts, "cancel", "{}");
  }

  /**
   * Window April 10 to 20 2026: a first charge hard-declined expires the subscription at once,
   * which then refuses every change as a cancelled one does; a customer who has paid before is
   * dunned instead, and waiving forgives the unpaid period.
   */
  @Test
  @Order(2)
  void waivingAnUnpaidPeriodForgivesItAndAWaivedPeriodCannotBeRefunded() {
    String account = newAccount();
    String declined = create(account, "2026-04-10", "pm_card_chargeDeclined");
    String paid = create(account, "2026-04-10", "pm_card_visa");
    Response newCard =
        API.request(ApiRequests.subscriptionPath(paidBeforeAccount, paidBefore) + "/payment-method")
            .put(Entity.json("{\"paymentMethod\":\"pm_card_chargeDeclined\"}"));
    assertThat(newCard.getStatus()).isEqualTo(200);
    assertThat(body(newCard).get("status").asText()).isEqualTo("ACTIVE");
    CALLS.sleepUntil(noonOf("2026-04-10"));
    JsonNode unpaid = CALLS.periods(account, declined).get(1L);
    assertThat(unpaid.get("status").asText()).isEqualTo("ERROR");
    assertThat(unpaid.get("failureCode").asText()).isEqualTo("card_declined");
    JsonNode expired = CALLS.subscription(account, declined);
    assertThat(expired.get("status").asText()).isEqualTo("INCOMPLETE_EXPIRED");
    assertThat(expired.get("nextPaymentDate").isNull()).isTrue();
    assertThat(CALLS.history(account, declined))
        .anyMatch(e -> e.startsWith("DUNNING_EXHAUSTED INITIAL 1"));
    JsonNode events = body(API.get("/v1/events?subscriptionId=" + declined)).get("items");
    assertThat(events.findValuesAsText("type"))
        .containsExactly(
            "subscription.incomplete_expired", "payment.failed", "subscription.created");
    for (String[] change :
        new String[][] {
          {"periods/1/waive", "{}"},
          {"pay", null},
          {"pause", "{}"},
          {"cancel", "{}"},
          {"billing-day", "{\"billingDay\":3}"},
          {"periods/1/refund", "{}"}
        }) {
      JsonNode refused = assertProblem(CALLS.post(account, declined, change[0], change[1]), 409);
      assertThat(refused.get("type").asText())
          .isEqualTo("https://billing.dev/problems/transition-not-allowed");
    }
    assertThat(CALLS.succeeded(declined)).isEmpty();
    assertThat(CALLS.charges(declined)).as("never charged again").hasSize(1);

    CALLS.sleepUntil(noonOf("2026-04-20"));
    assertThat(CALLS.subscription(paidBeforeAccount, paidBefore).get("status").asText())
        .isEqualTo("PAST_DUE");
    assertThat(CALLS.periods(paidBeforeAccount, paidBefore).get(2L).get("failureCode").asText())
        .isEqualTo("card_declined");

    JsonNode waived =
        CALLS.ok(paidBeforeAccount, paidBefore, "periods/2/waive", "{\"reason\":\"goodwill\"}");

    assertThat(waived.get("status").asText()).isEqualTo("ACTIVE");
    JsonNode period = CALLS.periods(paidBeforeAccount, paidBefore).get(2L);
    assertThat(period.get("status").asText()).isEqualTo("WAIVED");
    assertThat(period.get("refundedAmount").isNull()).isTrue();
    assertThat(CALLS.history(paidBeforeAccount, paidBefore))
        .anyMatch(e -> e.startsWith("PERIOD_WAIVED API 2"));

    JsonNode refund =
        assertProblem(CALLS.post(paidBeforeAccount, paidBefore, "periods/2/refund", "{}"), 409);
    assertThat(refund.get("type").asText())
        .isEqualTo("https://billing.dev/problems/transition-not-allowed");
    assertProblem(CALLS.post(paidBeforeAccount, paidBefore, "periods/2/waive", "{}"), 409);
    // Only an unpaid period can be waived.
    assertProblem(CALLS.post(account, paid, "periods/1/waive", null), 409);
    assertThat(CALLS.periods(account, paid).get(1L).get("status").asText()).isEqualTo("COMPLETED");
    assertThat(CALLS.refunds(paidBefore)).isEmpty();
    CALLS.ok(paidBeforeAccount, paidBefore, "cancel", "{}");
    CALLS.ok(account, paid, "cancel", "{}");
  }

  /**
   * Window May 5 2026: manual repayment of a soft-declined first payment before its first retry.
   */
  @Test
  @Order(3)
  void payNowCollectsTheUnpaidPeriodAtOnce() {
    String account = newAccount();
    // Declines the first attempt of each period, accepts the second.
    String id = create(account, "2026-05-05", "pm_sandbox_recoversAfter_1");
    CALLS.sleepUntil(noonOf("2026-05-05"));
    assertThat(CALLS.subscription(account, id).get("status").asText()).isEqualTo("INCOMPLETE");

    JsonNode paid = CALLS.ok(account, id, "pay", null);

    assertThat(paid.get("status").asText()).isEqualTo("ACTIVE");
    JsonNode period = CALLS.periods(account, id).get(1L);
    assertThat(period.get("status").asText()).isEqualTo("COMPLETED");
    assertThat(period.get("attempts").asInt()).isEqualTo(2);
    assertThat(CALLS.succeeded(id))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.cycle()).isEqualTo(1L);
              assertThat(c.amount()).isEqualTo(usd("9.99"));
              assertThat(period.get("transactionId").asText()).isEqualTo(c.transactionId());
            });
    assertThat(CALLS.history(account, id))
        .anyMatch(e -> e.startsWith("PAYMENT_SUCCEEDED MANUAL_REPAYMENT 1"));
    // Nothing is unpaid any more.
    assertProblem(CALLS.post(account, id, "pay", null), 409);
    assertThat(CALLS.charges(id)).hasSize(2);
    CALLS.ok(account, id, "cancel", "{}");
  }

  /** Window June 5 2026: a declined manual repayment is a 402 with the gateway's reason. */
  @Test
  @Order(4)
  void aDeclinedManualRepaymentIsA402AndLeavesThePeriodUnpaid() {
    String account = newAccount();
    // Declines attempts 1 and 2 of each period (insufficient_funds), accepts the third.
    String id = create(account, "2026-06-05", "pm_sandbox_recoversAfter_2");
    CALLS.sleepUntil(noonOf("2026-06-05"));

    JsonNode problem = assertProblem(CALLS.post(account, id, "pay", null), 402);

    assertThat(problem.get("type").asText())
        .isEqualTo("https://billing.dev/problems/payment-declined");
    assertThat(problem.get("detail").asText())
        .isEqualTo("the payment of cycle 1 was declined: Your card has insufficient funds.");
    JsonNode period = CALLS.periods(account, id).get(1L);
    assertThat(period.get("status").asText()).isEqualTo("ERROR");
    assertThat(period.get("failureCode").asText()).isEqualTo("insufficient_funds");
    assertThat(period.get("attempts").asInt()).isEqualTo(2);
    assertThat(CALLS.subscription(account, id).get("status").asText()).isEqualTo("INCOMPLETE");
    assertThat(CALLS.succeeded(id)).isEmpty();

    JsonNode paid = CALLS.ok(account, id, "pay", null);

    assertThat(paid.get("status").asText()).isEqualTo("ACTIVE");
    assertThat(CALLS.periods(account, id).get(1L).get("attempts").asInt()).isEqualTo(3);
    assertThat(CALLS.succeeded(id)).extracting(SandboxCharge::cycle).containsExactly(1L);
    CALLS.ok(account, id, "cancel", "{}");
  }

  /**
   * No time moves from here on; subscriptions start 10 days ahead, so no reminder is due either.
   */
  @Test
  @Order(10)
  void periodIdsMustBeCycleNumbersAndBodiesValid() {
    String account = newAccount();
    String id = create(account, CALLS.today().plusDays(10).toString(), "pm_card_visa");

    for (String bad : new String[] {"0", "-1", "abc", "1.5", "12345678901"}) {
      // Outside the one path-id pattern ("1.5") the generic check answers first.
      assertThat(
              assertInvalidField(
                  CALLS.post(account, id, "periods/" + bad + "/waive", "{}"), "periodId"))
          .isEqualTo(
              bad.matches(PathIds.PATTERN)
                  ? "periodId must be a period's cycle number such as 3"
                  : "periodId must match " + PathIds.PATTERN);
      assertInvalidField(CALLS.post(account, id, "periods/" + bad + "/refund", "{}"), "periodId");
    }
    assertInvalidField(
        CALLS.post(account, id, "periods/1/waive", "{\"reason\":\"" + "x".repeat(501) + "\"}"),
        "reason");
    assertInvalidField(CALLS.post(account, id, "periods/1/refund", "{\"amount\":9.99}"), "amount");
    assertInvalidField(
        CALLS.post(account, id, "periods/1/refund", "{\"amout\":\"9.99\"}"), "amout");
    // A new subscription's next period is 1: period 2 does not exist.
    assertProblem(CALLS.post(account, id, "periods/2/waive", "{}"), 404);
    assertThat(CALLS.subscription(account, id).get("version").asLong()).isEqualTo(1);
  }

  @Test
  @Order(11)
  void unknownAndCancelledSubscriptionsAreRefused() {
    String account = newAccount();
    assertProblem(CALLS.post(account, "sub_nothere", "pay", null), 404);
    assertProblem(CALLS.post(account, "sub_nothere", "periods/1/waive", "{}"), 404);
    assertProblem(CALLS.post(account, "sub_nothere", "periods/1/refund", "{}"), 404);

    String id = create(account, CALLS.today().plusDays(10).toString(), "pm_card_visa");
    CALLS.ok(account, id, "cancel", "{}");

    assertThat(assertProblem(CALLS.post(account, id, "pay", null), 409).get("detail").asText())
        .isEqualTo("Subscription " + id + " is CANCELLED; it cannot be charged.");
    assertProblem(CALLS.post(account, id, "periods/1/waive", "{}"), 409);
    assertProblem(CALLS.post(account, id, "periods/1/refund", "{}"), 409);
  }

  @Test
  @Order(12)
  void payingWhenNothingIsUnpaidIsAConflict() {
    String account = newAccount();
    String id = create(account, CALLS.today().plusDays(10).toString(), "pm_card_visa");

    JsonNode problem = assertProblem(CALLS.post(account, id, "pay", null), 409);

    assertThat(problem.get("type").asText())
        .isEqualTo("https://billing.dev/problems/transition-not-allowed");
    assertThat(CALLS.charges(id)).isEmpty();
  }

  @Test
  @Order(13)
  void aCancelledSubscriptionsCollectedPeriodCanStillBeRefunded() {
    String account = newAccount();
    LocalDate start = CALLS.today().plusDays(1);
    String id = create(account, start.toString(), "pm_card_visa");
    CALLS.sleepUntil(noonOf(start.toString()));
    CALLS.ok(account, id, "cancel", "{}");

    JsonNode refunded = CALLS.ok(account, id, "periods/1/refund", "{\"amount\":\"3.00\"}");

    assertThat(refunded.get("status").asText()).isEqualTo("CANCELLED");
    assertThat(CALLS.periods(account, id).get(1L).get("refundedAmount").asText()).isEqualTo("3.00");
    assertThat(CALLS.refunds(id)).extracting(SandboxRefund::amount).containsExactly(usd("3.00"));
    // 6.99 is left: the ended subscription's rules are the same.
    assertProblem(CALLS.post(account, id, "periods/1/refund", "{\"amount\":\"7.00\"}"), 409);
    assertThat(CALLS.history(account, id)).anyMatch(e -> e.startsWith("PAYMENT_REFUNDED API 1"));
  }
}
