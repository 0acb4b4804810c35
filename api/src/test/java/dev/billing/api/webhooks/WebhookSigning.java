package dev.billing.api.webhooks;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs test deliveries the way the providers document it (t=..,v1=hex HMAC-SHA256 of "t.body"),
 * written apart from the production verifier so that a mistake in one is not mirrored in the other.
 */
final class WebhookSigning {
  static final String SANDBOX_SECRET = "whsec_sandbox_test_secret";
  static final String STRIPE_SECRET = "whsec_stripe_test_secret_0123456789";

  private WebhookSigning() {}

  static String header(String secret, long unixSeconds, String body) {
    return "t=" + unixSeconds + ",v1=" + hmacHex(secret, unixSeconds + "." + body);
  }

  static String hmacHex(String secret, String signedPayload) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return HexFormat.of().formatHex(mac.doFinal(signedPayload.getBytes(StandardCharsets.UTF_8)));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
