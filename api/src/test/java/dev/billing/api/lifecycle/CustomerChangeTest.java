package dev.billing.api.lifecycle;

import static dev.billing.api.support.ApiTestSupport.assertProblem;
import static dev.billing.api.support.ApiTestSupport.body;
import static dev.billing.api.support.ApiTestSupport.newAccount;
import static dev.billing.api.support.ApiTestSupport.subscriptionBody;
import static dev.billing.api.support.ApiTestSupport.subscriptionPath;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.activities.notifications.Notification;
import dev.billing.activities.notifications.NotificationKind;
import dev.billing.api.ApiConfiguration;
import dev.billing.api.support.ApiTestSupport;
import dev.billing.api.support.LifecycleCalls;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * POST .../customer through the real workflow and store. Today is 2026-03-10; the subscription is
 * monthly on the 20th in UTC from 2026-03-20, reminded three days before.
 */
@Tag("e2e")
class CustomerChangeTest {

  static final ApiTestSupport API = ApiTestSupport.start();

  @RegisterExtension static final DropwizardAppExtension<ApiConfiguration> APP = API.extension();

  static final LifecycleCalls CALLS = new LifecycleCalls(API);

  @Test
  void newDetailsAreRecordedAndTheNextChargeFallsOnTheDueDateInTheNewZone() {
    String account = newAccount();
    String id = API.created(account, subscriptionBody()).get("subscriptionId").asText();
    String body =
        "{\"email\":\"ana@new.example\",\"locale\":\"fr-ca\",\"timeZone\":\"Pacific/Kiritimati\"}";

    JsonNode changed = CALLS.ok(account, id, "customer", body);

    assertThat(changed.get("email").asText()).isEqualTo("ana@new.example");
    assertThat(changed.get("locale").asText()).isEqualTo("fr-CA");
    assertThat(changed.get("timeZone").asText()).isEqualTo("Pacific/Kiritimati");
    assertThat(changed.get("cycle").asLong()).isEqualTo(1);
    assertThat(changed.get("nextPaymentDate").asText()).isEqualTo("2026-03-20");
    assertThat(changed.get("nextReminderDate").asText()).isEqualTo("2026-03-17");
    JsonNode entry = lastHistoryEntry(account, id);
    assertThat(entry.get("event").asText()).isEqualTo("CUSTOMER_CHANGED");
    assertThat(entry.get("changes"))
        .extracting(c -> c.get("field").asText() + "=" + c.get("to").asText())
        .contains("Email=ana@new.example", "Locale=fr-CA", "TimeZone=Pacific/Kiritimati");
    assertThat(assertProblem(CALLS.post(account, id, "customer", body), 409).get("detail").asText())
        .isEqualTo(
            "nothing to change: the subscription already has this email and locale fr-CA and"
                + " time zone Pacific/Kiritimati.");

    // March 20 begins at 10:00 UTC on March 19 in Kiritimati (UTC+14): charged within its window
    // (six hours by default), before UTC's March 20 has begun.
    CALLS.sleepUntil(Instant.parse("2026-03-19T20:00:00Z"));

    assertThat(CALLS.succeeded(id)).hasSize(1);
    assertThat(CALLS.periods(account, id).get(1L).get("dueDate").asText()).isEqualTo("2026-03-20");
    List<Notification> reminders =
        API.stack().outbox.sent().stream()
            .filter(n -> id.equals(n.subscriptionId()))
            .filter(n -> n.kind() == NotificationKind.PAYMENT_REMINDER)
            .toList();
    assertThat(reminders).extracting(Notification::to).containsExactly("ana@new.example");
  }

  private static JsonNode lastHistoryEntry(String account, String id) {
    JsonNode items =
        body(API.get(subscriptionPath(account, id) + "/history?limit=200")).get("items");
    return items.get(items.size() - 1);
  }
}
