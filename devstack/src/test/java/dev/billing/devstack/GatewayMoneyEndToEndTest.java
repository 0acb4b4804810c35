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
 * Money that moves at the gateway, outside billing's calls, through the dev stack over HTTP: a
 * refund made as if in the gateway's dashboard ({@code POST /v1/dev/charges/{id}/refund}) reaches
 * the period by the sandbox's signed webhook, and pm_sandbox_disputed's dispute and its loss.
 */
class GatewayMoneyEndToEndTest {

  @RegisterExtension static final RunningDevStack STACK = new RunningDevStack();

  private HttpJson http;

  @BeforeEach
  void http() {
    http = STACK.http();
  }

  @Test
  void aDashboardRefundReachesThePeriodByTheSandboxsWebhook() throws Exception {
    LocalDate due = EndToEnd.today(http).plusDays(2);
    String id =
        EndToEnd.create(http, "acc-dash", "pm_card_visa", due).get("subscriptionId").asText();
    EndToEnd.advanceTo(http, due.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant());
    String periods = "/v1/accounts/acc-dash/subscriptions/" + id + "/periods";
    String txn =
        EndToEnd.await(
                http,
                periods,
                b -> "COMPLETED".equals(b.get("items").get(0).get("status").asText()))
            .get("items")
            .get(0)
            .get("transactionId")
            .asText();
    String refund = "/v1/dev/charges/" + txn + "/refund";

    HttpJson.Response bad = http.post(refund, "{\"amount\":\"1.999\"}");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.body().get("errors").get(0).get("field").asText()).isEqualTo("amount");
    assertThat(http.post("/v1/dev/charges/ch_sb_none/refund", "{}").status()).isEqualTo(404);

    HttpJson.Response part = http.post(refund, "{\"amount\":\"4.00\"}");
    assertThat(part.status()).as(String.valueOf(part.body())).isEqualTo(200);
    assertThat(part.body().get("amount").asText()).isEqualTo("4.00");
    JsonNode refunded =
        EndToEnd.await(http, periods, b -> "4.00".equals(refundedOf(b.get("items").get(0))))
            .get("items")
            .get(0);
    assertThat(refunded.get("status").asText()).isEqualTo("REFUNDED");

    HttpJson.Response rest = http.post(refund, "");
    assertThat(rest.status()).as(String.valueOf(rest.body())).isEqualTo(200);
    assertThat(rest.body().get("amount").asText()).as("all that is left").isEqualTo("5.99");
    EndToEnd.await(http, periods, b -> "9.99".equals(refundedOf(b.get("items").get(0))));
    assertThat(http.post(refund, "{\"amount\":\"0.01\"}").status()).isEqualTo(409);

    JsonNode history =
        http.get("/v1/accounts/acc-dash/subscriptions/" + id + "/history").body().get("items");
    List<String> refunds = new ArrayList<>();
    history.forEach(
        e -> {
          if ("PAYMENT_REFUNDED".equals(e.get("event").asText())) {
            refunds.add(e.get("detail").asText());
          }
        });
    assertThat(refunds).hasSize(2).allMatch(d -> d.contains("at the gateway, outside billing"));
  }

  @Test
  void aDisputedChargeIsDisputedThenLostAndOwedAgain() throws Exception {
    LocalDate due = EndToEnd.today(http).plusDays(2);
    String id =
        EndToEnd.create(http, "acc-dispute", "pm_sandbox_disputed", due)
            .get("subscriptionId")
            .asText();
    String periods = "/v1/accounts/acc-dispute/subscriptions/" + id + "/periods";

    EndToEnd.advanceTo(http, due.plusDays(6).atStartOfDay(ZoneOffset.UTC).toInstant());
    EndToEnd.await(
        http, periods, b -> "DISPUTED".equals(b.get("items").get(0).get("status").asText()));

    EndToEnd.advanceTo(http, due.plusDays(16).atStartOfDay(ZoneOffset.UTC).toInstant());
    String history = "/v1/accounts/acc-dispute/subscriptions/" + id + "/history";
    JsonNode events =
        EndToEnd.await(http, history, b -> events(b).contains("PAYMENT_RETURNED")).get("items");
    assertThat(events(http.get(history).body()))
        .contains("PAYMENT_SUCCEEDED", "PAYMENT_DISPUTED", "PAYMENT_RETURNED");
    assertThat(events).isNotEmpty();
  }

  private static String refundedOf(JsonNode period) {
    return period.get("refundedAmount").isNull() ? null : period.get("refundedAmount").asText();
  }

  private static List<String> events(JsonNode history) {
    List<String> names = new ArrayList<>();
    history.get("items").forEach(e -> names.add(e.get("event").asText()));
    return names;
  }
}
