package dev.billing.domain;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * SHA-256 and HMAC-SHA256 for every caller: ids, keys and tokens derived from these are persisted,
 * so the bytes hashed and the encoding (lowercase hex) must never change. Several parts are hashed
 * as their concatenation, strings as UTF-8. Pure and deterministic: safe in workflow code.
 */
public final class Digests {
  private static final String SHA_256 = "SHA-256";
  private static final String HMAC_SHA_256 = "HmacSHA256";
  private static final HexFormat HEX = HexFormat.of();

  private Digests() {}

  /** SHA-256 of the parts, one after the other. */
  public static byte[] sha256(byte[]... parts) {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance(SHA_256);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is required of every Java runtime", e);
    }
    for (byte[] part : parts) {
      sha.update(part);
    }
    return sha.digest();
  }

  /** SHA-256 of the text's UTF-8 bytes. */
  public static byte[] sha256(String text) {
    return sha256(utf8(text));
  }

  /** Lowercase hex of {@link #sha256(String)}. */
  public static String sha256Hex(String text) {
    return HEX.formatHex(sha256(text));
  }

  /** HMAC-SHA256 keyed with {@code key} over the parts, one after the other. */
  public static byte[] hmacSha256(byte[] key, byte[]... parts) {
    Mac mac;
    try {
      // A Mac is not thread-safe and cheap to make: one per call.
      mac = Mac.getInstance(HMAC_SHA_256);
      mac.init(new SecretKeySpec(key, HMAC_SHA_256));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is required of every Java runtime", e);
    }
    for (byte[] part : parts) {
      mac.update(part);
    }
    return mac.doFinal();
  }

  /** Lowercase hex. */
  public static String hex(byte[] bytes) {
    return HEX.formatHex(bytes);
  }

  public static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
