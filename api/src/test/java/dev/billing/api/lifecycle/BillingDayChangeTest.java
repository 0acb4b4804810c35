package dev.billing.api.lifecycle;

import static dev.billing.api.support.ApiTestSupport.newAccount;
import static dev.billing.api.support.ApiTestSupport.subscriptionBody;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.support.ApiTestSupport;
import dev.billing.api.support.LifecycleCalls;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * POST .../billing-day through the real workflow. Time never moves here: today is 2026-03-10 and
 * the subscriptions are monthly on the 20th from 2026-03-20, not charged yet.
 */
@Tag("e2e")
class BillingDayChangeTest {

  static final ApiTestSupport API = ApiTestSupport.shared();

  static final LifecycleCalls CALLS = new LifecycleCalls(API);

  @Test
  void movingTheBillingDayMovesTheNextDueDateToTheFirstSuchDayOnOrAfterTheCurrentOne() {
    String account = newAccount();
    String later = API.created(account, subscriptionBody()).get("subscriptionId").asText();
    String earlier = API.created(account, subscriptionBody()).get("subscriptionId").asText();

    JsonNode toThe31st = CALLS.ok(account, later, "billing-day", "{\"billingDay\":31}");
    JsonNode toThe5th = CALLS.ok(account, earlier, "billing-day", "{\"billingDay\":5}");

    assertThat(toThe31st.get("billingDay").asInt()).isEqualTo(31);
    assertThat(toThe31st.get("nextPaymentDate").asText()).isEqualTo("2026-03-31");
    assertThat(toThe31st.get("nextReminderDate").asText()).isEqualTo("2026-03-28");
    // Never earlier than the date already due, so no period is skipped: April 5, not March 5.
    assertThat(toThe5th.get("billingDay").asInt()).isEqualTo(5);
    assertThat(toThe5th.get("nextPaymentDate").asText()).isEqualTo("2026-04-05");
    assertThat(CALLS.history(account, later))
        .anyMatch(e -> e.startsWith("BILLING_DAY_CHANGED API "));
  }
}
