package dev.billing.api.auth.keys;

import dev.billing.domain.Digests;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * API keys: {@code bk_<keyId>_<secret>}, a public key id (16 hex digits, the lookup key) and a
 * secret of 256 random bits (64 hex digits). Only {@link #hash} of the secret is stored.
 *
 * <p>Why a single SHA-256 and not bcrypt/scrypt/argon2: slow hashes protect low-entropy passwords
 * from guessing. A 256-bit random secret cannot be guessed, with or without the stolen hash, so a
 * deliberately slow hash would only cost CPU on every cache miss. The key id salts the hash (the
 * same secret under two ids hashes differently), and no pepper is used: it would be one more secret
 * to distribute to every API instance and the operator command, and it adds nothing against a
 * 256-bit secret.
 */
public final class ApiKeyTokens {
  public static final String PREFIX = "bk_";
  private static final Pattern TOKEN = Pattern.compile("bk_([0-9a-f]{16})_([0-9a-f]{64})");
  public static final Pattern KEY_ID = Pattern.compile("[0-9a-f]{16}");
  private static final String HASH_CONTEXT = "billing-api-key/v1\n";
  private static final HexFormat HEX = HexFormat.of();

  private ApiKeyTokens() {}

  /** A key as presented: the id to look up and the secret to check. */
  public record Presented(String keyId, String secret) {
    @Override
    public String toString() {
      return "Presented[keyId=" + keyId + "]";
    }
  }

  /** A new key: the token is shown to its owner once and never stored. */
  public record Issued(String keyId, String token, String hash) {
    @Override
    public String toString() {
      return "Issued[keyId=" + keyId + "]";
    }
  }

  public static Issued issue(SecureRandom random) {
    byte[] id = new byte[8];
    byte[] secret = new byte[32];
    random.nextBytes(id);
    random.nextBytes(secret);
    String keyId = HEX.formatHex(id);
    String secretHex = HEX.formatHex(secret);
    return new Issued(keyId, PREFIX + keyId + "_" + secretHex, hash(keyId, secretHex));
  }

  /**
   * @return the parts of a well-formed key, or empty for anything else
   */
  public static Optional<Presented> parse(String token) {
    if (token == null) {
      return Optional.empty();
    }
    Matcher m = TOKEN.matcher(token);
    return m.matches() ? Optional.of(new Presented(m.group(1), m.group(2))) : Optional.empty();
  }

  /** Hex SHA-256 of the secret, bound to its key id. */
  public static String hash(String keyId, String secret) {
    return Digests.hex(
        Digests.sha256(Digests.utf8(HASH_CONTEXT), Digests.utf8(keyId + "\n" + secret)));
  }

  /** Constant-time comparison of the presented secret's hash with the stored one. */
  public static boolean matches(Presented presented, String storedHash) {
    byte[] actual = hash(presented.keyId(), presented.secret()).getBytes(StandardCharsets.US_ASCII);
    byte[] expected = storedHash.getBytes(StandardCharsets.US_ASCII);
    return MessageDigest.isEqual(actual, expected);
  }
}
