package dev.billing.api.webhooks;

import dev.billing.domain.Digests;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Locale;

/**
 * The sandbox's signature check: HMAC-SHA256 keyed with the endpoint's secret over {@code "<t>." +
 * raw body bytes}, hex-encoded, compared in constant time; and, for both providers, the signed
 * timestamp within {@link #TOLERANCE} of now, so a captured delivery cannot be replayed later.
 * Stripe's signatures are checked by stripe-java ({@link StripeSignatures}).
 */
final class WebhookSignatures {
  /** Stripe's default tolerance, and the sandbox's (docs/payments.md, "Webhooks"). */
  static final Duration TOLERANCE = Duration.ofSeconds(300);

  private static final int SIGNATURE_HEX_LENGTH = 64;

  enum Verdict {
    VALID,
    MISMATCH,
    OUTSIDE_TOLERANCE
  }

  private WebhookSignatures() {}

  static Verdict verify(SignatureHeader header, byte[] body, byte[] secret, Instant now) {
    // The signature first: only an authentic delivery learns that its timestamp is the problem.
    byte[] expected = sign(secret, header.timestamp(), body);
    boolean matched = false;
    for (String candidate : header.signatures()) {
      // Every candidate is compared (no early exit), each in constant time.
      matched |= MessageDigest.isEqual(expected, decode(candidate));
    }
    return matched ? timely(header.timestamp(), now) : Verdict.MISMATCH;
  }

  /**
   * VALID when the signing time is within the tolerance of now, either way: a clock ahead of ours
   * is no more trusted than one behind.
   */
  static Verdict timely(long timestamp, Instant now) {
    long skew = Math.abs(now.getEpochSecond() - timestamp);
    return skew <= TOLERANCE.toSeconds() ? Verdict.VALID : Verdict.OUTSIDE_TOLERANCE;
  }

  static byte[] sign(byte[] secret, long timestamp, byte[] body) {
    return Digests.hmacSha256(secret, (timestamp + ".").getBytes(StandardCharsets.US_ASCII), body);
  }

  /** A value that is not 64 hex digits matches nothing (an empty array never equals a MAC). */
  private static byte[] decode(String hex) {
    if (hex.length() != SIGNATURE_HEX_LENGTH) {
      return new byte[0];
    }
    try {
      return HexFormat.of().parseHex(hex.toLowerCase(Locale.ROOT));
    } catch (IllegalArgumentException notHex) {
      return new byte[0];
    }
  }
}
