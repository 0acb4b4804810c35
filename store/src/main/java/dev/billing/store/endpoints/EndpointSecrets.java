package dev.billing.store.endpoints;

import dev.billing.domain.Digests;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals endpoint signing secrets for storage: AES-256-GCM under a key derived from the API's
 * configured secret, so a copy of the table (a backup, an export) does not reveal them. The
 * endpoint id is the associated data: a sealed secret moved onto another endpoint's item does not
 * open. Stored as base64({@code iv || ciphertext || tag}) with a fresh 12-byte IV per secret.
 */
public final class EndpointSecrets {
  /** Derives a key of its own, so the page-token key never serves as an encryption key directly. */
  static final String LABEL = "webhook-endpoint-secrets";

  private static final int IV_BYTES = 12;
  private static final int TAG_BITS = 128;

  private final SecretKeySpec key;
  private final SecureRandom random = new SecureRandom();

  /**
   * @param configuredKey the API's configured secret (the page-token key)
   */
  public EndpointSecrets(byte[] configuredKey) {
    this.key =
        new SecretKeySpec(
            Digests.hmacSha256(configuredKey, LABEL.getBytes(StandardCharsets.UTF_8)), "AES");
  }

  public String seal(String endpointId, String secret) {
    byte[] iv = new byte[IV_BYTES];
    random.nextBytes(iv);
    byte[] sealed = crypt(Cipher.ENCRYPT_MODE, iv, endpointId, utf8(secret));
    byte[] out = Arrays.copyOf(iv, IV_BYTES + sealed.length);
    System.arraycopy(sealed, 0, out, IV_BYTES, sealed.length);
    return Base64.getEncoder().encodeToString(out);
  }

  /**
   * @throws IllegalStateException when the value was sealed under another key (the configured
   *     secret was rotated), for another endpoint, or altered
   */
  public String open(String endpointId, String stored) {
    byte[] bytes = Base64.getDecoder().decode(stored);
    if (bytes.length <= IV_BYTES) {
      throw new IllegalStateException("the secret of endpoint " + endpointId + " is malformed");
    }
    byte[] iv = Arrays.copyOf(bytes, IV_BYTES);
    byte[] sealed = Arrays.copyOfRange(bytes, IV_BYTES, bytes.length);
    return new String(crypt(Cipher.DECRYPT_MODE, iv, endpointId, sealed), StandardCharsets.UTF_8);
  }

  private byte[] crypt(int mode, byte[] iv, String endpointId, byte[] input) {
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, iv));
      cipher.updateAAD(utf8(endpointId));
      return cipher.doFinal(input);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(
          "the secret of endpoint "
              + endpointId
              + " does not open: sealed under another key (was the page token secret rotated?)"
              + " or altered",
          e);
    }
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
