package dev.billing.api.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Checks a delivery against its signature header: HMAC-SHA256 keyed with the endpoint's secret over
 * {@code "<t>." + raw body bytes}, hex-encoded, compared in constant time; and the signed timestamp
 * within {@link #TOLERANCE} of now, so a captured delivery cannot be replayed later.
 */
final class WebhookSignatures {
  /** Stripe's default tolerance, and the sandbox's (docs/payments.md, "Webhooks"). */
  static final Duration TOLERANCE = Duration.ofSeconds(300);
  private static final String MAC = "HmacSHA256";
  private static final int SIGNATURE_HEX_LENGTH = 64;

  enum Verdict { VALID, MISMATCH, OUTSIDE_TOLERANCE }

  private WebhookSignatures() {}

  static Verdict verify(SignatureHeader header, byte[] body, byte[] secret, Instant now) {
    // The signature first: only an authentic delivery learns that its timestamp is the problem.
    byte[] expected = sign(secret, header.timestamp(), body);
    boolean matched = false;
    for (String candidate : header.signatures()) {
      // Every candidate is compared (no early exit), each in constant time.
      matched |= MessageDigest.isEqual(expected, decode(candidate));
    }
    if (!matched) {
      return Verdict.MISMATCH;
    }
    long skew = Math.abs(now.getEpochSecond() - header.timestamp());
    return skew <= TOLERANCE.toSeconds() ? Verdict.VALID : Verdict.OUTSIDE_TOLERANCE;
  }

  static byte[] sign(byte[] secret, long timestamp, byte[] body) {
    try {
      Mac mac = Mac.getInstance(MAC);
      mac.init(new SecretKeySpec(secret, MAC));
      mac.update((timestamp + ".").getBytes(StandardCharsets.US_ASCII));
      return mac.doFinal(body);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is required of every Java runtime", e);
    }
  }

  /** A value that is not 64 hex digits matches nothing (an empty array never equals a MAC). */
  private static byte[] decode(String hex) {
    if (hex.length() != SIGNATURE_HEX_LENGTH) {
      return new byte[0];
    }
    try {
      return HexFormat.of().parseHex(hex.toLowerCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException notHex) {
      return new byte[0];
    }
  }
}
