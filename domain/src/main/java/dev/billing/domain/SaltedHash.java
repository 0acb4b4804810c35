package dev.billing.domain;

import java.nio.ByteBuffer;

/**
 * A stable, evenly spread number for an id: the first eight bytes of SHA-256(salt + id),
 * big-endian. Each use has its own salt so that, for one id, the numbers of different uses are
 * independent (the due instant's offset and the date-key shard). The values are persisted in effect
 * (timers fire at them, index keys hold them), so the rule must never change. Pure: safe in
 * workflow code.
 */
public final class SaltedHash {
  private SaltedHash() {}

  public static long of(String salt, String id) {
    return ByteBuffer.wrap(Digests.sha256(salt + id)).getLong();
  }
}
