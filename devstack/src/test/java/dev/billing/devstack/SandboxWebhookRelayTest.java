package dev.billing.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.sandbox.SandboxGateway;
import dev.billing.activities.payments.sandbox.SandboxWebhooks;
import dev.billing.domain.Money;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The relay against a receiver that checks signatures as the API does (five minutes either way of
 * the test server's clock), while the clock jumps a month in the middle of a batch of deliveries.
 */
class SandboxWebhookRelayTest {
  private static final String SECRET = "whsec_relay_test";

  private EmbeddedTemporal temporal;
  private HttpServer receiver;
  private final List<Integer> answers = new CopyOnWriteArrayList<>();
  private volatile CompletableFuture<Instant> jump;

  @BeforeEach
  void start() throws Exception {
    temporal = new EmbeddedTemporal(EndToEnd.freePort(), Duration.ofSeconds(30));
    receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    receiver.createContext(
        SandboxWebhooks.PATH,
        exchange -> {
          String body =
              new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
          boolean valid =
              signedNow(
                  exchange.getRequestHeaders().getFirst(SandboxWebhooks.SIGNATURE_HEADER),
                  body,
                  temporal.clock().instant());
          if (jump == null) {
            // Someone advances the clock while the first delivery is being handled: the jump may
            // finish during it (nothing holds the clock) or only once it was answered.
            jump = CompletableFuture.supplyAsync(() -> temporal.advance(Duration.ofDays(31)));
            try {
              jump.get(2, TimeUnit.SECONDS);
            } catch (TimeoutException heldUntilAnswered) {
              // the relay holds the clock: the jump goes on after this answer
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
          }
          int status = valid ? 200 : 401;
          answers.add(status);
          exchange.sendResponseHeaders(status, -1);
          exchange.close();
        });
    receiver.start();
  }

  /**
   * The header is the signature of the body at its time t, and t is within the tolerance of now.
   */
  private static boolean signedNow(String header, String body, Instant now) {
    Matcher m = Pattern.compile("t=([0-9]{1,12}),v1=[0-9a-f]{64}").matcher(String.valueOf(header));
    if (!m.matches()) {
      return false;
    }
    long t = Long.parseLong(m.group(1));
    return header.equals(SandboxWebhooks.signatureHeader(SECRET, t, body))
        && Math.abs(now.getEpochSecond() - t) <= SandboxWebhooks.TOLERANCE.toSeconds();
  }

  @AfterEach
  void stop() {
    receiver.stop(0);
    temporal.close();
  }

  @Test
  void every_delivery_is_accepted_when_the_clock_jumps_between_deliveries() throws Exception {
    SandboxGateway gateway = new SandboxGateway(temporal.clock());
    for (int cycle = 1; cycle <= 3; cycle++) {
      gateway.charge(
          new GatewayChargeRequest(
              "charge:sub-1:" + cycle + ":1",
              new Money(999, "USD"),
              "pm_card_visa",
              "Plus",
              Map.of(
                  GatewayChargeRequest.SUBSCRIPTION_ID,
                  "sub-1",
                  GatewayChargeRequest.CYCLE,
                  Integer.toString(cycle))));
    }
    Instant before = temporal.clock().instant();
    var relay =
        new SandboxWebhookRelay(
            gateway, temporal, "http://127.0.0.1:" + receiver.getAddress().getPort(), SECRET);

    relay.deliverDue();

    assertThat(answers).as("the receiver's answers, in order").containsExactly(200, 200, 200);
    assertThat(jump.get(30, TimeUnit.SECONDS)).isAfter(before.plus(Duration.ofDays(31)));
  }
}
