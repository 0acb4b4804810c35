package dev.billing.bench.gateway;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.billing.activities.payments.ChargeQuery;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.PaymentGateway;
import dev.billing.activities.payments.PaymentGatewayException;
import dev.billing.activities.payments.RefundRequest;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link PaymentGateway} served over HTTP on 127.0.0.1, so that it outlives the processes that
 * call it (the benchmark kills the worker; the gateway and what it charged must stay). Each call
 * takes {@code latency}: half before the gateway acts and half after, as a network round trip does,
 * so a caller that dies mid-call may die before the charge or after it.
 */
public final class GatewayHttpServer implements AutoCloseable {
  private final PaymentGateway gateway;
  private final Duration latency;
  private final HttpServer server;
  private final ExecutorService threads;
  private final ObjectMapper json = GatewayWire.mapper();
  private final AtomicLong chargeCalls = new AtomicLong();

  private GatewayHttpServer(PaymentGateway gateway, Duration latency) throws IOException {
    this.gateway = gateway;
    this.latency = latency;
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    // One thread per call in flight: callers wait out the latency as they would on a real gateway.
    this.threads =
        Executors.newCachedThreadPool(
            runnable -> {
              Thread thread = new Thread(runnable, "gateway-http");
              thread.setDaemon(true);
              return thread;
            });
    server.setExecutor(threads);
    server.createContext("/", this::handle);
    server.start();
  }

  /** Starts serving {@code gateway} on a free port of the loopback interface. */
  public static GatewayHttpServer start(PaymentGateway gateway, Duration latency)
      throws IOException {
    return new GatewayHttpServer(gateway, latency);
  }

  /** What {@link HttpGateway} is given: {@code http://127.0.0.1:<port>}. */
  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Charge requests received so far, answered or not: how far a billing day has got. */
  public long chargeCalls() {
    return chargeCalls.get();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (!"POST".equals(exchange.getRequestMethod())) {
        send(
            exchange,
            405,
            new GatewayWire.Error("invalid_request", "method_not_allowed", null, "POST only"));
        return;
      }
      byte[] body = exchange.getRequestBody().readAllBytes();
      String path = exchange.getRequestURI().getPath();
      if (path.equals(GatewayWire.CHARGE)) {
        chargeCalls.incrementAndGet();
      }
      pause();
      Object answer;
      int status = 200;
      try {
        answer = dispatch(path, body);
      } catch (PaymentGatewayException e) {
        status = GatewayWire.status(e);
        answer = GatewayWire.error(e);
      } catch (JsonProcessingException e) {
        status = GatewayWire.INVALID;
        answer =
            new GatewayWire.Error(
                "invalid_request", "malformed_body", null, e.getOriginalMessage());
      } catch (UnknownPath e) {
        status = 404;
        answer = new GatewayWire.Error("invalid_request", "unknown_operation", null, path);
      } catch (RuntimeException e) {
        status = 500;
        answer = new GatewayWire.Error("api_error", null, null, e.toString());
      }
      pause();
      send(exchange, status, answer);
    }
  }

  private Object dispatch(String path, byte[] body) throws IOException {
    return switch (path) {
      case GatewayWire.CHARGE -> gateway.charge(json.readValue(body, GatewayChargeRequest.class));
      case GatewayWire.REFUND -> gateway.refund(json.readValue(body, RefundRequest.class));
      case GatewayWire.LOOK_UP -> gateway.lookUp(json.readValue(body, ChargeQuery.class));
      case GatewayWire.LIST_CHARGES -> {
        GatewayWire.Window window = json.readValue(body, GatewayWire.Window.class);
        yield gateway.listCharges(window.from(), window.to());
      }
      case GatewayWire.LIST_EVENTS -> {
        GatewayWire.Window window = json.readValue(body, GatewayWire.Window.class);
        yield gateway.listEvents(window.from(), window.to());
      }
      default -> throw new UnknownPath();
    };
  }

  private static final class UnknownPath extends RuntimeException {
    UnknownPath() {
      super(null, null, false, false);
    }
  }

  private void pause() {
    long half = latency.toMillis() / 2;
    if (half > 0) {
      try {
        Thread.sleep(half);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void send(HttpExchange exchange, int status, Object answer) throws IOException {
    byte[] bytes = json.writeValueAsBytes(answer);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
