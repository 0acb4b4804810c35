package dev.billing.api.ops;

import static dev.billing.api.support.ApiRequests.assertInvalidField;
import static dev.billing.api.support.ApiRequests.assertProblem;
import static dev.billing.api.support.ApiRequests.body;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.support.ResourceTestSupport;
import dev.billing.domain.PaymentEvent;
import dev.billing.store.events.StoredEvent;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * /v1/ops/payment-events: one subscription's stored gateway events, oldest first, a page at a time,
 * for operators only; the id is checked like every id.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class PaymentEventsEndpointTest {

  static final ResourceTestSupport API = ResourceTestSupport.start();
  private static final Instant AT = Instant.parse("2026-03-10T12:00:00Z");

  private static StoredEvent stored(String subscriptionId, String id, int minutes, boolean failed) {
    Instant occurred = AT.plusSeconds(60L * minutes);
    return new StoredEvent(
        "sandbox",
        id,
        failed ? "charge.failed" : "charge.succeeded",
        failed ? PaymentEvent.Type.CHARGE_FAILED : PaymentEvent.Type.CHARGE_SUCCEEDED,
        subscriptionId,
        1L,
        "charge:" + subscriptionId + ":1:" + (minutes + 1),
        "ch_" + id,
        occurred,
        occurred.plusSeconds(2),
        failed
            ? Map.of("amount", "9.99", "currency", "USD", "failureCode", "card_declined")
            : Map.of("amount", "9.99", "currency", "USD"));
  }

  @Test
  void listsOneSubscriptionsEventsOldestFirstAPageAtATime() {
    String sub = "sub-pe-" + System.nanoTime();
    API.stack().paymentEvents.recordOnce(stored(sub, "evt_b", 1, false));
    API.stack().paymentEvents.recordOnce(stored(sub, "evt_a", 0, true));
    API.stack().paymentEvents.recordOnce(stored("other-" + sub, "evt_c", 0, false));

    List<JsonNode> items = new ArrayList<>();
    String token = null;
    do {
      JsonNode page =
          body(
              API.get(
                  "/v1/ops/payment-events?subscriptionId="
                      + sub
                      + "&limit=1"
                      + (token == null ? "" : "&pageToken=" + token)));
      page.get("items").forEach(items::add);
      token = page.get("nextPageToken").isNull() ? null : page.get("nextPageToken").asText();
    } while (token != null);

    assertThat(items).extracting(i -> i.get("eventId").asText()).containsExactly("evt_a", "evt_b");
    JsonNode failed = items.get(0);
    assertThat(failed.get("type").asText()).isEqualTo("charge.failed");
    assertThat(failed.get("paymentEvent").asText()).isEqualTo("CHARGE_FAILED");
    assertThat(failed.get("cycle").asLong()).isEqualTo(1);
    assertThat(failed.get("idempotencyKey").asText()).isEqualTo("charge:" + sub + ":1:1");
    assertThat(failed.get("transactionId").asText()).isEqualTo("ch_evt_a");
    assertThat(failed.get("occurredAt").asText()).isEqualTo("2026-03-10T12:00:00.000Z");
    assertThat(failed.get("receivedAt").asText()).isEqualTo("2026-03-10T12:00:02.000Z");
    assertThat(failed.get("summary").get("failureCode").asText()).isEqualTo("card_declined");
  }

  @Test
  void aSubscriptionWithoutEventsIsAnEmptyPage() {
    JsonNode page = body(API.get("/v1/ops/payment-events?subscriptionId=sub-none"));
    assertThat(page.get("items")).isEmpty();
    assertThat(page.get("nextPageToken").isNull()).isTrue();
  }

  @Test
  void theSubscriptionIdIsRequiredAndCheckedAndTheListIsForOperatorsOnly() {
    assertInvalidField(API.get("/v1/ops/payment-events"), "subscriptionId");
    assertInvalidField(API.get("/v1/ops/payment-events?subscriptionId=a%23b"), "subscriptionId");
    assertProblem(
        API.requestAs(API.accountKey("acc-pe"), "/v1/ops/payment-events?subscriptionId=sub-1")
            .get(),
        403);
    assertProblem(
        API.requestAs("bk_nope_nope", "/v1/ops/payment-events?subscriptionId=sub-1").get(), 401);
    assertProblem(API.requestAs(null, "/v1/ops/payment-events?subscriptionId=sub-1").get(), 401);
  }
}
