package dev.billing.activities.payments.sandbox;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Objects;

/**
 * How strict the sandbox is, with Stripe's numbers as defaults (docs/configuration.md,
 * docs/payments.md's sandbox rules).
 *
 * @param idempotencyRetention how long a key is remembered from its first request; a key reused
 *     later is a new request (Stripe: at least 24 hours)
 * @param searchLag how long after its creation a charge becomes visible to {@link
 *     SandboxGateway#searchByKey} (Stripe's search: normally within a minute)
 * @param requestsPerSecond requests admitted in any one-second window, measured on a real monotonic
 *     clock; {@link #UNLIMITED} turns the limit off (Stripe: 25 in test mode, 100 live)
 */
public record SandboxSettings(
    Duration idempotencyRetention, Duration searchLag, int requestsPerSecond) {

  public static final Duration DEFAULT_IDEMPOTENCY_RETENTION = Duration.ofHours(24);
  public static final Duration DEFAULT_SEARCH_LAG = Duration.ofMinutes(1);

  /** Stripe's limit for a sandbox (test mode) account. */
  public static final int TEST_MODE_REQUESTS_PER_SECOND = 25;

  /** Stripe's limit for a live account. */
  public static final int LIVE_MODE_REQUESTS_PER_SECOND = 100;

  public static final int UNLIMITED = 0;

  public static final String RETENTION_ENV = "SANDBOX_IDEMPOTENCY_RETENTION";
  public static final String SEARCH_LAG_ENV = "SANDBOX_SEARCH_LAG";

  /** A number, or "unlimited". */
  public static final String REQUESTS_PER_SECOND_ENV = "SANDBOX_REQUESTS_PER_SECOND";

  public SandboxSettings {
    Objects.requireNonNull(idempotencyRetention, "idempotencyRetention");
    Objects.requireNonNull(searchLag, "searchLag");
    if (idempotencyRetention.isNegative() || idempotencyRetention.isZero()) {
      throw new IllegalArgumentException("idempotencyRetention must be positive");
    }
    if (searchLag.isNegative()) {
      throw new IllegalArgumentException("searchLag must not be negative");
    }
    if (requestsPerSecond < 0) {
      throw new IllegalArgumentException("requestsPerSecond must be positive, or UNLIMITED");
    }
  }

  /** Stripe's test mode: keys kept 24 h, search a minute behind, 25 requests/s. */
  public static SandboxSettings defaults() {
    return new SandboxSettings(
        DEFAULT_IDEMPOTENCY_RETENTION, DEFAULT_SEARCH_LAG, TEST_MODE_REQUESTS_PER_SECOND);
  }

  /**
   * The defaults, overridden by {@value #RETENTION_ENV} and {@value #SEARCH_LAG_ENV} (ISO-8601
   * durations, e.g. PT24H, PT1M) and {@value #REQUESTS_PER_SECOND_ENV} (a number or "unlimited").
   *
   * @throws IllegalArgumentException naming the variable whose value is malformed
   */
  public static SandboxSettings fromEnvironment(Map<String, String> env) {
    return fromEnvironment(env, defaults());
  }

  /** {@code d}, overridden by the environment as {@link #fromEnvironment(Map)} says. */
  public static SandboxSettings fromEnvironment(Map<String, String> env, SandboxSettings d) {
    return new SandboxSettings(
        duration(env, RETENTION_ENV, d.idempotencyRetention()),
        duration(env, SEARCH_LAG_ENV, d.searchLag()),
        rate(env.get(REQUESTS_PER_SECOND_ENV), d.requestsPerSecond()));
  }

  public SandboxSettings withIdempotencyRetention(Duration retention) {
    return new SandboxSettings(retention, searchLag, requestsPerSecond);
  }

  public SandboxSettings withSearchLag(Duration lag) {
    return new SandboxSettings(idempotencyRetention, lag, requestsPerSecond);
  }

  public SandboxSettings withRequestsPerSecond(int limit) {
    if (limit == UNLIMITED) {
      throw new IllegalArgumentException("say withoutRateLimit() to turn the limit off");
    }
    return new SandboxSettings(idempotencyRetention, searchLag, limit);
  }

  /** No rate limit: only for harnesses that must fire bursts faster than any gateway allows. */
  public SandboxSettings withoutRateLimit() {
    return new SandboxSettings(idempotencyRetention, searchLag, UNLIMITED);
  }

  public boolean rateLimited() {
    return requestsPerSecond != UNLIMITED;
  }

  private static Duration duration(Map<String, String> env, String name, Duration fallback) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      return Duration.parse(value.trim());
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          name + " must be an ISO-8601 duration such as PT24H (got \"" + value + "\")", e);
    }
  }

  private static int rate(String value, int fallback) {
    if (value == null || value.isBlank()) {
      return fallback;
    }
    if (value.trim().equalsIgnoreCase("unlimited")) {
      return UNLIMITED;
    }
    try {
      int limit = Integer.parseInt(value.trim());
      if (limit > 0) {
        return limit;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        REQUESTS_PER_SECOND_ENV
            + " must be a positive number or \"unlimited\" (got \""
            + value
            + "\")");
  }
}
