package dev.billing.bench.load;

import dev.billing.bench.report.Summary;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;

/**
 * An open-loop HTTP load generator: request i is due at start + i / rate whatever happened to the
 * earlier ones, and its latency is measured from that due time, so a slow server is charged for the
 * requests that queued behind it (no coordinated omission).
 */
public final class LoadGenerator {

  /** One request to send: which endpoint it counts under, and its URL. */
  public record Target(String endpoint, String url) {}

  /** Latencies (ms) by endpoint, and failures (non-2xx or I/O errors). */
  public record Result(Map<String, List<Double>> latencies, long failures, double achievedRate) {

    public double percentile(String endpoint, double p) {
      return Summary.percentile(latencies.get(endpoint), p);
    }
  }

  private LoadGenerator() {}

  /**
   * @param authorization the Authorization header of every request
   */
  public static Result run(
      int rate, Duration duration, String authorization, IntFunction<Target> targets)
      throws Exception {
    ExecutorService executor = Executors.newFixedThreadPool(32);
    HttpClient http =
        HttpClient.newBuilder()
            .executor(executor)
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .build();
    Map<String, List<Double>> latencies = new TreeMap<>();
    AtomicLong failures = new AtomicLong();
    List<CompletableFuture<?>> inFlight = new ArrayList<>();
    long total = (long) rate * duration.toSeconds();
    long start = System.nanoTime();
    try {
      for (int i = 0; i < total; i++) {
        long due = start + (long) (i * 1e9 / rate);
        long wait = due - System.nanoTime();
        if (wait > 0) {
          LockSupport.parkNanos(wait);
        }
        Target target = targets.apply(i);
        HttpRequest request =
            HttpRequest.newBuilder(URI.create(target.url()))
                .timeout(Duration.ofSeconds(30))
                .header("Accept", "application/json")
                .header("Authorization", authorization)
                .GET()
                .build();
        inFlight.add(
            http.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                .whenComplete(
                    (response, error) -> {
                      double ms = (System.nanoTime() - due) / 1e6;
                      if (error != null || response.statusCode() / 100 != 2) {
                        failures.incrementAndGet();
                      }
                      synchronized (latencies) {
                        latencies
                            .computeIfAbsent(target.endpoint(), k -> new ArrayList<>())
                            .add(ms);
                      }
                    }));
      }
      CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new))
          .exceptionally(e -> null)
          .get(60, TimeUnit.SECONDS);
    } finally {
      executor.shutdownNow();
    }
    double elapsed = (System.nanoTime() - start) / 1e9;
    return new Result(latencies, failures.get(), total / elapsed);
  }
}
