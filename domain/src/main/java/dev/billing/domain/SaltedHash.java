package dev.billing.domain;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A stable, evenly spread number for an id: the first eight bytes of SHA-256(salt + id), big-endian.
 * Each use has its own salt so that, for one id, the numbers of different uses are independent
 * (the due instant's offset and the date-key shard). The values are persisted in effect (timers fire
 * at them, index keys hold them), so the rule must never change. Pure: safe in workflow code.
 */
public final class SaltedHash {
  private SaltedHash() {}

  public static long of(String salt, String id) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256")
          .digest((salt + id).getBytes(StandardCharsets.UTF_8));
      return ByteBuffer.wrap(digest).getLong();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java runtime", e);
    }
  }
}
