package dev.billing.devstack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.billing.activities.delivery.DeliverySignature;
import dev.billing.activities.views.Timestamps;
import dev.billing.store.endpoints.WebhookEndpoint;
import dev.billing.store.endpoints.WebhookEndpointStore;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A merchant's product inside the dev stack, for the walk-through: a small HTTP server on localhost
 * whose {@code POST /webhooks} is registered like any webhook endpoint ({@code
 * http://localhost:8082/webhooks}). It checks each delivery's {@code Billing-Signature} against the
 * signing secrets of the endpoints registered, as a product would (400 without one, 401 when none
 * matches), and hands what it accepts to {@link DevWebhooksResource} ({@code GET
 * /v1/dev/webhooks}). Not part of the API: it stands where the merchant's server would.
 */
final class DevWebhookReceiver implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DevWebhookReceiver.class);

  static final String PATH = "/webhooks";
  static final Pattern SIGNATURE = Pattern.compile("^t=(\\d{1,12}),v1=([0-9a-f]{64})$");
  private static final int MAX_BODY = 256 * 1024;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final WebhookEndpointStore endpoints;
  private final DevWebhooksResource inbox;
  private final HttpServer server;

  /**
   * @param port 0 for any free port
   */
  DevWebhookReceiver(int port, WebhookEndpointStore endpoints, DevWebhooksResource inbox)
      throws IOException {
    this.endpoints = endpoints;
    this.inbox = inbox;
    this.server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
    server.createContext(PATH, this::handle);
    server.start();
  }

  /** Where to register it: {@code http://localhost:<port>/webhooks}. */
  String url() {
    return "http://localhost:" + server.getAddress().getPort() + PATH;
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (!exchange.getRequestMethod().equals("POST")) {
        exchange.sendResponseHeaders(405, -1);
        return;
      }
      byte[] body;
      try (InputStream in = exchange.getRequestBody()) {
        body = in.readNBytes(MAX_BODY + 1);
      }
      String signature = exchange.getRequestHeaders().getFirst(DeliverySignature.HEADER);
      Matcher header = signature == null ? null : SIGNATURE.matcher(signature);
      if (body.length > MAX_BODY || header == null || !header.matches()) {
        exchange.sendResponseHeaders(400, -1);
        return;
      }
      Optional<String> endpointId = signer(Long.parseLong(header.group(1)), signature, body);
      if (endpointId.isEmpty()) {
        exchange.sendResponseHeaders(401, -1);
        return;
      }
      JsonNode event = JSON.readTree(body);
      inbox.add(
          new DevWebhooksResource.ReceivedView(
              endpointId.get(),
              event.path("id").asText(null),
              event.path("type").asText(null),
              event.path("data").path("subscription").path("subscriptionId").asText(null),
              Timestamps.instant(Instant.now()),
              signature,
              event));
      exchange.sendResponseHeaders(204, -1);
    } catch (RuntimeException e) {
      log.warn("Dev webhook receiver: {}", e.toString());
      exchange.sendResponseHeaders(500, -1);
    }
  }

  /** The registered endpoint whose secret signed this body, if any. */
  private Optional<String> signer(long t, String signature, byte[] body) {
    for (WebhookEndpoint endpoint : endpoints.all()) {
      Optional<String> secret;
      try {
        secret = endpoints.secret(endpoint.id());
      } catch (IllegalStateException unreadable) {
        continue;
      }
      if (secret.isPresent()
          && MessageDigest.isEqual(
              DeliverySignature.header(secret.get(), t, body).getBytes(StandardCharsets.UTF_8),
              signature.getBytes(StandardCharsets.UTF_8))) {
        return Optional.of(endpoint.id());
      }
    }
    return Optional.empty();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
