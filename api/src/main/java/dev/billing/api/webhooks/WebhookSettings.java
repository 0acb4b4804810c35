package dev.billing.api.webhooks;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The webhook signing secrets (api.yml {@code webhooks:}, from STRIPE_WEBHOOK_SECRET and
 * SANDBOX_WEBHOOK_SECRET). A provider without a secret has no endpoint: its deliveries get 404, and
 * an unsigned endpoint never exists.
 */
public record WebhookSettings(
    @JsonProperty("stripeSecret") String stripeSecret,
    @JsonProperty("sandboxSecret") String sandboxSecret) {

  public static WebhookSettings none() {
    return new WebhookSettings(null, null);
  }

  /** Provider name to HMAC key, for the providers that have a secret. */
  Map<String, byte[]> secrets() {
    Map<String, byte[]> secrets = new LinkedHashMap<>();
    put(secrets, WebhookProvider.STRIPE, stripeSecret);
    put(secrets, WebhookProvider.SANDBOX, sandboxSecret);
    return secrets;
  }

  private static void put(Map<String, byte[]> secrets, String provider, String secret) {
    if (secret != null && !secret.isBlank()) {
      // Both schemes key the HMAC with the whole secret string, "whsec_" prefix included.
      secrets.put(provider, secret.strip().getBytes(StandardCharsets.UTF_8));
    }
  }

  /** Never prints a secret: configuration ends up in logs. */
  @Override
  public String toString() {
    return "WebhookSettings[stripeSecret="
        + shown(stripeSecret)
        + ", sandboxSecret="
        + shown(sandboxSecret)
        + "]";
  }

  private static String shown(String secret) {
    return secret == null || secret.isBlank() ? "(none)" : "(set)";
  }
}
