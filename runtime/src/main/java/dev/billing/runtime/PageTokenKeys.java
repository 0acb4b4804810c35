package dev.billing.runtime;

import dev.billing.store.StoreSettings;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The key that signs pagination tokens, so a client cannot forge or alter one. */
public final class PageTokenKeys {
  private static final Logger LOG = LoggerFactory.getLogger(PageTokenKeys.class);

  private PageTokenKeys() {}

  /**
   * The configured secret (at least 32 characters), or a random per-process key. A random key is
   * fine for one process, but its tokens do not survive a restart or cross API instances.
   */
  public static byte[] fromSecretOrRandom(String secret) {
    if (secret == null || secret.isBlank()) {
      LOG.warn(
          "No page token secret configured (BILLING_PAGE_TOKEN_SECRET): using a random key; "
              + "page tokens will not survive a restart or work across API instances.");
      return random();
    }
    byte[] key = secret.getBytes(StandardCharsets.UTF_8);
    if (key.length < StoreSettings.MIN_KEY_BYTES) {
      throw new IllegalArgumentException(
          "the page token secret must be at least " + StoreSettings.MIN_KEY_BYTES + " bytes long");
    }
    return key;
  }

  /** For processes that read no pages (the worker): nothing depends on the key surviving. */
  public static byte[] random() {
    byte[] key = new byte[StoreSettings.MIN_KEY_BYTES];
    new SecureRandom().nextBytes(key);
    return key;
  }
}
