package dev.billing.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.function.Predicate;
import org.awaitility.Awaitility;

/** What the end-to-end tests do over HTTP, as a user of the dev stack would. */
final class EndToEnd {
  private EndToEnd() {}

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  static Instant now(HttpJson http) throws Exception {
    return Instant.parse(http.get("/v1/dev/clock").body().get("now").asText());
  }

  /** Today in UTC by the test clock. */
  static LocalDate today(HttpJson http) throws Exception {
    return LocalDate.ofInstant(now(http), ZoneOffset.UTC);
  }

  /** A 9.99 USD monthly subscription in UTC whose first payment is on {@code startDate}. */
  static JsonNode create(HttpJson http, String account, String paymentMethod, LocalDate startDate)
      throws Exception {
    HttpJson.Response response =
        http.post(
            "/v1/accounts/" + account + "/subscriptions",
            """
        {"sku":"plus-monthly","amount":"9.99","currency":"USD","email":"ada@example.com",
         "paymentMethod":"%s","startDate":"%s","timeZone":"UTC"}"""
                .formatted(paymentMethod, startDate));
    assertThat(response.status()).as(String.valueOf(response.body())).isEqualTo(201);
    return response.body();
  }

  /** Advances the test clock in steps of at most 31 days, as a user would, up to {@code target}. */
  static void advanceTo(HttpJson http, Instant target) throws Exception {
    Instant now = now(http);
    while (now.isBefore(target)) {
      Duration step = Duration.between(now, target);
      if (step.compareTo(Duration.ofDays(31)) > 0) {
        step = Duration.ofDays(31);
      }
      HttpJson.Response advanced =
          http.post(
              "/v1/dev/clock/advance",
              "{\"duration\":\"" + step.plusSeconds(1).withNanos(0) + "\"}");
      assertThat(advanced.status()).isEqualTo(200);
      now = Instant.parse(advanced.body().get("now").asText());
    }
  }

  /** Activities run in real time after the clock jumped: poll, bounded. */
  static JsonNode await(HttpJson http, String path, Predicate<JsonNode> done) {
    return Awaitility.await(path)
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> http.get(path).body(), done::test);
  }
}
