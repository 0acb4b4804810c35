package dev.billing.bench.stack;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The production API ({@code BillingApiApplication}, as {@code ./billing api} runs it) in its own
 * JVM, configured by the environment like any deployment, with {@code bench-api.yml}: no request
 * log, warnings only.
 */
public final class ApiProcess implements AutoCloseable {
  private final Process process;
  private final int port;
  private final String authorization;

  private ApiProcess(Process process, int port, String authorization) {
    this.process = process;
    this.port = port;
    this.authorization = authorization;
  }

  /**
   * @param apiKey a bearer token the API accepts (an operator key the harness created)
   */
  public static ApiProcess start(
      String temporalTarget,
      String dynamoEndpoint,
      int port,
      int adminPort,
      String heap,
      Path log,
      String apiKey)
      throws Exception {
    Map<String, String> environment =
        Map.of(
            "TEMPORAL_TARGET",
            temporalTarget,
            "DYNAMODB_ENDPOINT",
            dynamoEndpoint,
            "BILLING_PORT",
            Integer.toString(port),
            "BILLING_ADMIN_PORT",
            Integer.toString(adminPort),
            "BILLING_PAGE_TOKEN_SECRET",
            BenchStack.PAGE_TOKEN_SECRET);
    Process process =
        ChildJvm.start(
            "dev.billing.api.BillingApiApplication",
            List.of("-Xmx" + heap, "-XX:+UseG1GC"),
            List.of("server", "bench-api.yml"),
            environment,
            log);
    ApiProcess api = new ApiProcess(process, port, "Bearer " + apiKey);
    api.awaitHealthy(adminPort);
    return api;
  }

  private void awaitHealthy(int adminPort) throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    HttpRequest ping =
        HttpRequest.newBuilder(URI.create("http://localhost:" + adminPort + "/healthcheck"))
            .timeout(Duration.ofSeconds(5))
            .build();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "the API process ended (exit " + process.exitValue() + "); see its log");
      }
      try {
        if (http.send(ping, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (java.io.IOException notYet) {
        // still starting
      }
      Thread.sleep(250);
    }
    throw new IllegalStateException("the API did not become healthy within 90 s");
  }

  /** The Authorization header every request to this API carries. */
  public String authorization() {
    return authorization;
  }

  public String baseUrl() {
    return "http://localhost:" + port;
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
