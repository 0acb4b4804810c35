package dev.billing.api.lifecycle;

import static dev.billing.api.support.ApiTestSupport.assertInvalidField;
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
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * POST .../cancel: at period end, or now with a pro-rata refund of the unused days. One shared
 * clock (from 2026-03-10) that only moves forward: each test has its own window of dates, in order.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CancelModesTest {

  static final ApiTestSupport API = ApiTestSupport.start();

  @RegisterExtension
  static final DropwizardAppExtension<ApiConfiguration> APP = API.extension();

  static final LifecycleCalls CALLS = new LifecycleCalls(API);

  /** Window March to April 2026. */
  @Test
  @Order(1)
  void atPeriodEndStaysActiveUntilThePaidThroughDateThenEndsWithoutAnotherCharge() {
    String account = newAccount();
    // Monthly on the 20th from 2026-03-20, 9.99 USD, reminder 3 days before.
    String id = API.created(account, subscriptionBody()).get("subscriptionId").asText();
    CALLS.sleepUntil(LocalDate.parse("2026-03-21"));

    JsonNode scheduled = CALLS.ok(account, id, "cancel",
        "{\"atPeriodEnd\":true,\"reason\":\"moving abroad\"}");

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
    // Cycle 1 paid on Mar 20; nothing at all was attempted for Apr 20, and no reminder went out for it.
    assertThat(CALLS.charges(id)).singleElement().satisfies(c -> {
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
    String id = API.created(account, with(with(with(subscriptionBody(),
        "startDate", "2026-05-20"), "billingDay", 20), "amount", "31.00")).get("subscriptionId").asText();
    CALLS.sleepUntil(LocalDate.parse("2026-05-21"));
    SandboxCharge paid = CALLS.succeeded(id).get(0);

    JsonNode cancelled = CALLS.ok(account, id, "cancel", "{\"refundUnused\":true}");

    assertThat(cancelled.get("status").asText()).isEqualTo("CANCELLED");
    assertThat(cancelled.get("nextPaymentDate").isNull()).isTrue();
    JsonNode period = CALLS.periods(account, id).get(1L);
    assertThat(period.get("status").asText()).isEqualTo("REFUNDED");
    assertThat(period.get("amount").asText()).isEqualTo("31.00");
    assertThat(period.get("refundedAmount").asText()).isEqualTo("29.00");
    assertThat(CALLS.refunds(id)).singleElement().satisfies(r -> {
      assertThat(r.transactionId()).isEqualTo(paid.transactionId());
      assertThat(r.amount()).isEqualTo(usd("29.00"));
    });
  }

  /** Window July 2026: an immediate cancellation without refund keeps the paid period as it was. */
  @Test
  @Order(3)
  void nowWithoutRefundEndsAtOnceAndRefundsNothing() {
    String account = newAccount();
    String id = API.created(account, with(with(subscriptionBody(),
        "startDate", "2026-07-01"), "billingDay", 1)).get("subscriptionId").asText();
    CALLS.sleepUntil(LocalDate.parse("2026-07-02"));

    JsonNode cancelled = CALLS.ok(account, id, "cancel", "{\"atPeriodEnd\":false,\"refundUnused\":false}");

    assertThat(cancelled.get("status").asText()).isEqualTo("CANCELLED");
    assertThat(cancelled.get("cancelsOn").isNull()).isTrue();
    assertThat(CALLS.periods(account, id).get(1L).get("status").asText()).isEqualTo("COMPLETED");
    assertThat(CALLS.periods(account, id).get(1L).get("refundedAmount").isNull()).isTrue();
    assertThat(CALLS.refunds(id)).isEmpty();
  }

  /** No time moves from here on; subscriptions start 10 days ahead, so no reminder is due either. */
  @Test
  @Order(10)
  void refundUnusedNeedsAnImmediateCancellation() {
    String account = newAccount();
    String id = API.created(account, with(with(subscriptionBody(), "startDate",
        CALLS.today().plusDays(10).toString()), "billingDay", CALLS.today().plusDays(10).getDayOfMonth()))
        .get("subscriptionId").asText();

    String message = assertInvalidField(CALLS.post(account, id, "cancel",
        "{\"atPeriodEnd\":true,\"refundUnused\":true}"), "refundUnused");

    assertThat(message).startsWith("refundUnused applies only to an immediate cancellation");
    assertThat(CALLS.subscription(account, id).get("version").asLong()).isEqualTo(1);
    assertInvalidField(CALLS.post(account, id, "cancel", "{\"atPeriodEnd\":\"yes\"}"), "atPeriodEnd");
    assertInvalidField(CALLS.post(account, id, "cancel", "{\"reason\":\"" + "x".repeat(501) + "\"}"), "reason");
    assertThat(CALLS.subscription(account, id).get("status").asText()).isEqualTo("ACTIVE");
  }
}
