package dev.billing.api.webhooks;

import com.stripe.exception.SignatureVerificationException;
import com.stripe.net.Webhook;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * Stripe's {@code Stripe-Signature} check, by stripe-java ({@link Webhook.Signature#verifyHeader}).
 * The header is parsed by {@link SignatureHeader} first: stripe-java does not validate its shape (a
 * non-numeric {@code t} would throw out of it), and the 400s name what is wrong. stripe-java is
 * given the header rebuilt from what was parsed, and no tolerance: it only refuses old timestamps,
 * where ours ({@link WebhookSignatures#timely}) refuses them either way, and is judged after the
 * signature matched.
 */
final class StripeSignatures {
  /** stripe-java skips its own timestamp check for a tolerance of zero or less. */
  private static final long NO_TOLERANCE = 0;

  private StripeSignatures() {}

  static WebhookSignatures.Verdict verify(
      SignatureHeader header, byte[] body, byte[] secret, Instant now) {
    StringBuilder canonical = new StringBuilder("t=").append(header.timestamp());
    header.signatures().forEach(v1 -> canonical.append(",v1=").append(v1));
    try {
      // Stripe signs the UTF-8 body; bytes that are not UTF-8 do not survive the String and so
      // cannot match, which is the right answer for a body Stripe did not send.
      Webhook.Signature.verifyHeader(
          new String(body, StandardCharsets.UTF_8),
          canonical.toString(),
          new String(secret, StandardCharsets.UTF_8),
          NO_TOLERANCE);
    } catch (SignatureVerificationException e) {
      return WebhookSignatures.Verdict.MISMATCH;
    }
    return WebhookSignatures.timely(header.timestamp(), now);
  }
}
