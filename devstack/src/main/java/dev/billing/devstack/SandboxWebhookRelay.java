package dev.billing.devstack;

import dev.billing.activities.payments.GatewayEvent;
import dev.billing.activities.payments.sandbox.SandboxGateway;
import dev.billing.activities.payments.sandbox.SandboxWebhooks;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plays the sandbox gateway's part in webhooks: delivers each event it emits (settlements, returns,
 * ...) to the API's webhook endpoint, signed, as Stripe delivers its own. A failed delivery is
 * retried on the next tick, like a provider's retries.
 *
 * <p>The endpoint refuses a signature more than five minutes from its clock, and the test clock
 * jumps by months: each delivery is signed as it is sent, and the clock is held from the signing
 * until the endpoint answered, so a jump can fall between two deliveries but never inside one.
 */
final class SandboxWebhookRelay implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SandboxWebhookRelay.class);
  private static final Duration TICK = Duration.ofMillis(250);

  private final SandboxGateway gateway;
  private final DevTemporal temporal;
  private final URI endpoint;
  private final String secret;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final ScheduledExecutorService ticks =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "sandbox-webhook-relay");
            thread.setDaemon(true);
            return thread;
          });
  private final Set<String> delivered = new HashSet<>();
  private Instant cursor = Instant.EPOCH;

  SandboxWebhookRelay(SandboxGateway gateway, DevTemporal temporal, String apiUrl, String secret) {
    this.gateway = gateway;
    this.temporal = temporal;
    this.endpoint = URI.create(apiUrl + SandboxWebhooks.PATH);
    this.secret = secret;
  }

  void start() {
    ticks.scheduleWithFixedDelay(
        this::deliverDue, TICK.toMillis(), TICK.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Delivers, oldest first, every event up to now that was not delivered yet; stops at the first
   * failure.
   */
  void deliverDue() {
    try {
      Instant now = temporal.clock().instant();
      for (GatewayEvent event : gateway.listEvents(cursor, now.plusMillis(1))) {
        if (delivered.contains(event.id())) {
          continue;
        }
        if (!temporal.holdingClock(() -> deliver(event))) {
          return;
        }
        delivered.add(event.id());
        cursor = event.occurredAt();
      }
    } catch (Exception e) {
      // Keep ticking: the API may not be up yet, or be restarting.
      LOG.debug("sandbox webhook relay: {}", e.toString());
    }
  }

  private boolean deliver(GatewayEvent event) throws Exception {
    SandboxWebhooks.SignedWebhook webhook =
        SandboxWebhooks.sign(event, secret, temporal.clock().instant());
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(endpoint)
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .header(SandboxWebhooks.SIGNATURE_HEADER, webhook.signatureHeader())
                .POST(HttpRequest.BodyPublishers.ofString(webhook.body()))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    boolean accepted = response.statusCode() / 100 == 2;
    if (!accepted) {
      LOG.warn(
          "sandbox webhook {} ({}) answered {}: {}",
          event.id(),
          event.type(),
          response.statusCode(),
          response.body());
    }
    return accepted;
  }

  @Override
  public void close() {
    ticks.shutdownNow();
  }
}
