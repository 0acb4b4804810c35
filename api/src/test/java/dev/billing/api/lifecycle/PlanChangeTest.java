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
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * POST .../plan, now (prorated) or at period end (pending). One shared clock (from 2026-03-10) that
 * only moves forward: each test has its own window of dates, in order.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("e2e")
class PlanChangeTest {

  static final ApiTestSupport API = ApiTestSupport.start();

  @RegisterExtension static final DropwizardAppExtension<ApiConfiguration> APP = API.extension();

  static final LifecycleCalls CALLS = new LifecycleCalls(API);

  private static String plan(String sku, String amount, String currency, String effective) {
    return "{\"sku\":\""
        + sku
        + "\",\"amount\":\""
        + amount
        + "\",\"currency\":\""
        + currency
        + "\",\"effective\":\""
        + effective
        + "\"}";
  }

  /** Window March to April 2026. */
  @Test
  @Order(1)
  void aChangeAtPeriodEndIsHeldAndBilledFromTheNextCycle() {
    String account = newAccount();
    String id = API.created(account, subscriptionBody()).get("subscriptionId").asText();
    CALLS.sleepUntil(LocalDate.parse("2026-03-21"));

    JsonNode changed =
        CALLS.ok(account, id, "plan", plan("team-monthly", "19.99", "USD", "periodEnd"));

    // The current period keeps its plan; cycle 2 (Apr 20) is the first at the new price.
    assertThat(changed.get("sku").asText()).isEqualTo("pro-monthly");
    assertThat(changed.get("amount").asText()).isEqualTo("9.99");
    JsonNode pending = changed.get("pendingChange");
    assertThat(pending.get("sku").asText()).isEqualTo("team-monthly");
    assertThat(pending.get("amount").asText()).isEqualTo("19.99");
    assertThat(pending.get("currency").asText()).isEqualTo("USD");
    assertThat(pending.get("effectiveCycle").asLong()).isEqualTo(2);
    assertThat(CALLS.succeeded(id)).hasSize(1);

    CALLS.sleepUntil(LocalDate.parse("2026-04-21"));

    JsonNode after = CALLS.subscription(account, id);
    assertThat(after.get("sku").asText()).isEqualTo("team-monthly");
    assertThat(after.get("amount").asText()).isEqualTo("19.99");
    assertThat(after.get("pendingChange").isNull()).isTrue();
    JsonNode period2 = CALLS.periods(account, id).get(2L);
    assertThat(period2.get("dueDate").asText()).isEqualTo("2026-04-20");
    assertThat(period2.get("status").asText()).isEqualTo("COMPLETED");
    assertThat(period2.get("amount").asText()).isEqualTo("19.99");
    assertThat(CALLS.succeeded(id))
        .extracting(SandboxCharge::amount)
        .containsExactly(usd("9.99"), usd("19.99"));
    CALLS.ok(account, id, "cancel", "{}");
  }

  /**
   * Window June to July 2026. 30.00 USD for June 20 to July 19 (30 days), upgraded to 60.00 on June
   * 21: the 29 days from the change to the paid-through date cost 1.00 USD more each, charged now.
   */
  @Test
  @Order(2)
  void anUpgradeNowChargesTheProratedDifferenceOnceEvenWhenAskedTwice() {
    String account = newAccount();
    String id =
        API.created(
                account,
                with(
                    with(with(subscriptionBody(), "startDate", "2026-06-20"), "billingDay", 20),
                    "amount",
                    "30.00"))
            .get("subscriptionId")
            .asText();
    CALLS.sleepUntil(LocalDate.parse("2026-06-21"));

    JsonNode changed = CALLS.ok(account, id, "plan", plan("pro-plus", "60.00", "USD", "now"));

    assertThat(changed.get("sku").asText()).isEqualTo("pro-plus");
    assertThat(changed.get("amount").asText()).isEqualTo("60.00");
    assertThat(changed.get("pendingChange").isNull()).isTrue();
    assertThat(changed.get("nextPaymentDate").asText()).isEqualTo("2026-07-20");
    assertThat(CALLS.succeeded(id))
        .extracting(SandboxCharge::amount)
        .containsExactly(usd("30.00"), usd("29.00"));
    // The same change again the same day is no change: refused, nothing charged.
    assertProblem(CALLS.post(account, id, "plan", plan("pro-plus", "60.00", "USD", "now")), 409);
    assertThat(CALLS.charges(id)).hasSize(2);

    CALLS.sleepUntil(LocalDate.parse("2026-07-21"));

    JsonNode period2 = CALLS.periods(account, id).get(2L);
    assertThat(period2.get("status").asText()).isEqualTo("COMPLETED");
    assertThat(period2.get("amount").asText()).isEqualTo("60.00");
    assertThat(CALLS.succeeded(id))
        .extracting(SandboxCharge::amount)
        .containsExactly(usd("30.00"), usd("29.00"), usd("60.00"));
    CALLS.ok(account, id, "cancel", "{}");
  }

  /**
   * Window August 2026. 9.99 USD on the 20th, switched to 99.00 yearly on Aug 30: 99.00 x 355/365 =
   * 96.29 for the year from Aug 20, less 9.99 x 21/31 = 6.77 for the month's unused days.
   */
  @Test
  @Order(3)
  void aSwitchToYearlyNowChargesTheYearLessTheMonthsUnusedDaysAndBillsAYearOn() {
    String account = newAccount();
    String id =
        API.created(
                account,
                with(with(subscriptionBody(), "startDate", "2026-08-20"), "billingDay", 20))
            .get("subscriptionId")
            .asText();
    CALLS.sleepUntil(LocalDate.parse("2026-08-30"));

    JsonNode yearly =
        CALLS.ok(
            account,
            id,
            "plan",
            "{\"sku\":\"pro-yearly\",\"amount\":\"99.00\",\"currency\":\"USD\","
                + "\"effective\":\"now\",\"term\":\"YEARLY\"}");

    assertThat(yearly.get("term").asText()).isEqualTo("YEARLY");
    assertThat(yearly.get("amount").asText()).isEqualTo("99.00");
    assertThat(yearly.get("nextPaymentDate").asText()).isEqualTo("2027-08-20");
    assertThat(CALLS.succeeded(id))
        .extracting(SandboxCharge::amount)
        .containsExactly(usd("9.99"), usd("89.52"));
    CALLS.ok(account, id, "cancel", "{}");
  }

  /**
   * No time moves from here on; subscriptions start 10 days ahead, so no reminder is due either.
   */
  @Test
  @Order(10)
  void theCurrencyMustBeTheSubscriptionsAndTheBodyComplete() {
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

    assertThat(
            assertInvalidField(
                CALLS.post(account, id, "plan", plan("team", "19.99", "EUR", "now")), "currency"))
        .isEqualTo("currency must be the subscription's currency (USD)");
    assertThat(
            assertInvalidField(
                CALLS.post(account, id, "plan", plan("team", "19.999", "USD", "now")), "amount"))
        .isEqualTo("amount has more decimals than USD allows (2)");
    assertThat(
            assertInvalidField(
                CALLS.post(account, id, "plan", plan("team", "0", "USD", "now")), "amount"))
        .isEqualTo("amount must be greater than zero");
    assertThat(
            assertInvalidField(
                CALLS.post(account, id, "plan", plan("team", "19.99", "USD", "tomorrow")),
                "effective"))
        .isEqualTo("effective must be \"now\" or \"periodEnd\"");
    assertInvalidField(
        CALLS.post(account, id, "plan", plan("team#1", "19.99", "USD", "now")), "sku");
    assertInvalidField(
        CALLS.post(account, id, "plan", plan("team", "19.99", "XYZ", "now")), "currency");
    assertInvalidField(
        CALLS.post(
            account,
            id,
            "plan",
            "{\"sku\":\"team\",\"amount\":19.99,\"currency\":\"USD\",\"effective\":\"now\"}"),
        "amount");

    JsonNode incomplete = assertProblem(CALLS.post(account, id, "plan", "{}"), 400);
    assertThat(
            StreamSupport.stream(incomplete.get("errors").spliterator(), false)
                .map(e -> e.get("field").asText())
                .toList())
        .containsExactlyInAnyOrder("sku", "amount", "currency", "effective");
    assertThat(CALLS.subscription(account, id).get("version").asLong()).isEqualTo(1);
  }

  @Test
  @Order(11)
  void unknownAndCancelledSubscriptionsAreRefused() {
    String account = newAccount();
    assertProblem(
        CALLS.post(account, "sub_nothere", "plan", plan("team", "19.99", "USD", "now")), 404);

    String id =
        API.created(
                account,
                with(
                    with(subscriptionBody(), "startDate", CALLS.today().plusDays(10).toString()),
                    "billingDay",
                    CALLS.today().plusDays(10).getDayOfMonth()))
            .get("subscriptionId")
            .asText();
    CALLS.ok(account, id, "cancel", "{}");

    JsonNode problem =
        assertProblem(
            CALLS.post(account, id, "plan", plan("team", "19.99", "USD", "periodEnd")), 409);
    assertThat(problem.get("detail").asText())
        .isEqualTo("Subscription " + id + " is CANCELLED; it cannot be moved to another plan.");
  }
}
