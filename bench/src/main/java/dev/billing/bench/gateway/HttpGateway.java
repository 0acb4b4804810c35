package dev.billing.bench.gateway;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.billing.activities.payments.ChargeQuery;
import dev.billing.activities.payments.GatewayCharge;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayEvent;
import dev.billing.activities.payments.GatewayRefund;
import dev.billing.activities.payments.GatewayUnavailableException;
import dev.billing.activities.payments.PaymentGateway;
import dev.billing.activities.payments.RefundRequest;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The worker's side of {@link GatewayHttpServer}: a {@link PaymentGateway} whose every call is an
 * HTTP request, with the gateway's exceptions thrown as the gateway threw them. A request that gets
 * no answer (refused, reset, timed out) is {@link GatewayUnavailableException}: the charge may or
 * may not have been made, exactly as with a real gateway.
 */
public final class HttpGateway implements PaymentGateway {
  /** Below the activities' 30 s start-to-close: the activity sees the timeout, not Temporal. */
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(20);

  private final URI base;
  private final HttpClient http;
  private final ObjectMapper json = GatewayWire.mapper();

  public HttpGateway(String url) {
    this.base = URI.create(url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
  }

  @Override
  public GatewayCharge charge(GatewayChargeRequest request) {
    return call(GatewayWire.CHARGE, request, json.constructType(GatewayCharge.class));
  }

  @Override
  public GatewayRefund refund(RefundRequest request) {
    return call(GatewayWire.REFUND, request, json.constructType(GatewayRefund.class));
  }

  @Override
  public GatewayChargeState lookUp(ChargeQuery query) {
    return call(GatewayWire.LOOK_UP, query, json.constructType(GatewayChargeState.class));
  }

  @Override
  public List<GatewayChargeState> listCharges(Instant from, Instant to) {
    return call(
        GatewayWire.LIST_CHARGES,
        new GatewayWire.Window(from, to),
        json.getTypeFactory().constructType(new TypeReference<List<GatewayChargeState>>() {}));
  }

  @Override
  public List<GatewayEvent> listEvents(Instant from, Instant to) {
    return call(
        GatewayWire.LIST_EVENTS,
        new GatewayWire.Window(from, to),
        json.getTypeFactory().constructType(new TypeReference<List<GatewayEvent>>() {}));
  }

  private <T> T call(String path, Object body, JavaType answer) {
    HttpResponse<byte[]> response;
    try {
      HttpRequest request =
          HttpRequest.newBuilder(base.resolve(path))
              .timeout(REQUEST_TIMEOUT)
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body)))
              .build();
      response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new GatewayUnavailableException("no answer from the gateway to " + path + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new GatewayUnavailableException("interrupted while the gateway answered " + path, e);
    }
    try {
      if (response.statusCode() == 200) {
        return json.readValue(response.body(), answer);
      }
      GatewayWire.Error error = null;
      try {
        error = json.readValue(response.body(), GatewayWire.Error.class);
      } catch (IOException notOurs) {
        // a body of someone else's (a proxy's page): the status alone decides
      }
      throw GatewayWire.exception(response.statusCode(), error, path);
    } catch (IOException e) {
      throw new GatewayUnavailableException(
          "unreadable answer from the gateway to " + path + ": " + e, e);
    }
  }
}
