package dev.billing.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The lifecycle as a user meets it, over HTTP and the dev clock: a pause across two cycles, and a
 * cancellation at period end.
 */
class LifecycleEndToEndTest {

  @RegisterExtension static final RunningDevStack STACK = new RunningDevStack();

  private HttpJson http;

  @BeforeEach
  void http() {
    http = STACK.http();
  }

  @Test
  void aPauseForTwoCyclesSkipsBothAndBillingRestartsWithTheNext() throws Exception {
    LocalDate due = EndToEnd.today(http).plusDays(2);
    String base =
        "/v1/accounts/acc-pause/subscriptions/"
            + EndToEnd.create(http, "acc-pause", "pm_card_visa", due)
                .get("subscriptionId")
                .asText();
    EndToEnd.advanceTo(http, due.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant());
    EndToEnd.await(http, "/v1/accounts/acc-pause/receipts", b -> b.get("items").size() >= 1);

    HttpJson.Response paused = http.post(base + "/pause", "{\"cycles\":2}");

    assertThat(paused.status()).as(String.valueOf(paused.body())).isEqualTo(200);
    assertThat(paused.body().get("status").asText()).isEqualTo("PAUSED");
    LocalDate restart = due.plusMonths(3);
    assertThat(paused.body().get("nextPaymentDate").asText()).isEqualTo(restart.toString());

    EndToEnd.advanceTo(http, restart.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant());
    JsonNode periods =
        EndToEnd.await(
            http,
            base + "/periods",
            b ->
                b.get("items").size() >= 4
                    && "COMPLETED".equals(b.get("items").get(3).get("status").asText()));

    assertThat(statuses(periods))
        .containsExactly(
            "1 " + due + " COMPLETED",
            "2 " + due.plusMonths(1) + " PAUSED_SKIPPED",
            "3 " + due.plusMonths(2) + " PAUSED_SKIPPED",
            "4 " + restart + " COMPLETED",
            "5 " + due.plusMonths(4) + " SCHEDULED");
    assertThat(http.get("/v1/accounts/acc-pause/receipts").body().get("items")).hasSize(2);
    JsonNode subscription = http.get(base).body();
    assertThat(subscription.get("status").asText()).isEqualTo("ACTIVE");
    // From the anchor, never from the clamped restart date: a 29th restarting on February 28 is
    // next due on March 29.
    assertThat(subscription.get("nextPaymentDate").asText())
        .isEqualTo(due.plusMonths(4).toString());
  }

  @Test
  void aCancellationAtPeriodEndKeepsTheSubscriptionUntilThePaidThroughDate() throws Exception {
    LocalDate due = EndToEnd.today(http).plusDays(2);
    String base =
        "/v1/accounts/acc-end/subscriptions/"
            + EndToEnd.create(http, "acc-end", "pm_card_visa", due).get("subscriptionId").asText();
    EndToEnd.advanceTo(http, due.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant());
    EndToEnd.await(http, "/v1/accounts/acc-end/receipts", b -> b.get("items").size() >= 1);

    HttpJson.Response cancelling = http.post(base + "/cancel", "{\"atPeriodEnd\":true}");

    assertThat(cancelling.status()).as(String.valueOf(cancelling.body())).isEqualTo(200);
    assertThat(cancelling.body().get("status").asText()).isEqualTo("ACTIVE");
    assertThat(cancelling.body().get("cancelsOn").asText()).isEqualTo(due.plusMonths(1).toString());

    EndToEnd.advanceTo(
        http, due.plusMonths(1).plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant());
    JsonNode ended = EndToEnd.await(http, base, b -> "CANCELLED".equals(b.get("status").asText()));

    assertThat(ended.get("status").asText()).isEqualTo("CANCELLED");
    assertThat(http.get("/v1/accounts/acc-end/receipts").body().get("items")).hasSize(1);
    assertThat(statuses(http.get(base + "/periods").body()))
        .containsExactly("1 " + due + " COMPLETED", "2 " + due.plusMonths(1) + " CANCELLED");
  }

  private static List<String> statuses(JsonNode periods) {
    List<String> lines = new ArrayList<>();
    periods
        .get("items")
        .forEach(
            p ->
                lines.add(
                    p.get("cycle").asText()
                        + " "
                        + p.get("dueDate").asText()
                        + " "
                        + p.get("status").asText()));
    return lines;
  }
}
