package dev.billing.activities.payments.stripe;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * How to reach Stripe. The API key comes from the environment ({@value #API_KEY_ENV}) and never
 * from a config file; {@link #toString()} hides it, so settings can be logged.
 *
 * @param apiBase Stripe's API root; tests point it at a stub server
 * @param connectTimeout plus readTimeout must stay under the charge activity's start-to-close
 *     timeout (30 s), so a slow call fails as GatewayUnavailable inside the attempt and Temporal
 *     retries it with the same idempotency key, instead of the attempt timing out
 * @param maxNetworkRetries retries inside one call by stripe-java itself (same idempotency key).
 *     Default 0: Temporal's activity retries already do this durably and with backoff
 */
public record StripeSettings(
    String apiKey,
    String apiBase,
    Duration connectTimeout,
    Duration readTimeout,
    int maxNetworkRetries) {

  public static final String API_KEY_ENV = "STRIPE_API_KEY";

  /** Optional override of the API root, e.g. for stripe-mock. */
  public static final String API_BASE_ENV = "STRIPE_API_BASE";

  public static final String DEFAULT_API_BASE = "https://api.stripe.com";
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
  public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(20);

  public StripeSettings {
    if (apiKey == null || apiKey.isBlank()) {
      throw new IllegalArgumentException("a Stripe API key is required (" + API_KEY_ENV + ")");
    }
    apiBase = apiBase == null || apiBase.isBlank() ? DEFAULT_API_BASE : stripSlash(apiBase);
    connectTimeout = positive(connectTimeout, DEFAULT_CONNECT_TIMEOUT, "connectTimeout");
    readTimeout = positive(readTimeout, DEFAULT_READ_TIMEOUT, "readTimeout");
    if (maxNetworkRetries < 0) {
      throw new IllegalArgumentException("maxNetworkRetries must not be negative");
    }
  }

  /** The defaults with this key. */
  public static StripeSettings of(String apiKey) {
    return new StripeSettings(apiKey, null, null, null, 0);
  }

  /**
   * From {@value #API_KEY_ENV} (required) and {@value #API_BASE_ENV} (optional).
   *
   * @throws IllegalStateException naming the variable when the key is missing
   */
  public static StripeSettings fromEnvironment(Map<String, String> env) {
    String key = env.get(API_KEY_ENV);
    if (key == null || key.isBlank()) {
      throw new IllegalStateException(
          API_KEY_ENV
              + " is not set: the Stripe gateway needs a"
              + " secret or restricted API key");
    }
    return new StripeSettings(key, env.get(API_BASE_ENV), null, null, 0);
  }

  public StripeSettings withApiBase(String base) {
    return new StripeSettings(apiKey, base, connectTimeout, readTimeout, maxNetworkRetries);
  }

  public StripeSettings withTimeouts(Duration connect, Duration read) {
    return new StripeSettings(apiKey, apiBase, connect, read, maxNetworkRetries);
  }

  public StripeSettings withMaxNetworkRetries(int retries) {
    return new StripeSettings(apiKey, apiBase, connectTimeout, readTimeout, retries);
  }

  /** Shows the key's kind and mode ("sk_live_", "rk_test_") and nothing of the secret. */
  @Override
  public String toString() {
    return "StripeSettings[apiKey="
        + keyKind(apiKey)
        + "…, apiBase="
        + apiBase
        + ", connectTimeout="
        + connectTimeout
        + ", readTimeout="
        + readTimeout
        + ", maxNetworkRetries="
        + maxNetworkRetries
        + "]";
  }

  private static String keyKind(String key) {
    int second = key.indexOf('_', key.indexOf('_') + 1);
    return second > 0 && second <= 8 ? key.substring(0, second + 1) : "";
  }

  private static Duration positive(Duration value, Duration fallback, String name) {
    Duration d = value == null ? fallback : value;
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive");
    }
    return Objects.requireNonNull(d);
  }

  private static String stripSlash(String base) {
    return base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
  }
}
