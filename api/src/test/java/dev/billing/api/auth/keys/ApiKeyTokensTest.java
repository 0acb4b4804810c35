package dev.billing.api.auth.keys;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ApiKeyTokensTest {
  private static final String KEY_ID = "0123456789abcdef";
  private static final String SECRET = "ab".repeat(32);

  /**
   * Stored keys hold only this hash: a changed rule would lock every key out. Computed apart, with
   * Python: sha256(b"billing-api-key/v1\n0123456789abcdef\n" + b"ab" * 32).
   */
  @Test
  void hashesASecretAsBefore() {
    assertThat(ApiKeyTokens.hash(KEY_ID, SECRET))
        .isEqualTo("c64dc50d128bd64924854529d61e62983709e7ac45feb8174df3865fcbc9a5c9");
  }

  @Test
  void matchesOnlyTheSecretItsHashWasMadeOf() {
    String stored = ApiKeyTokens.hash(KEY_ID, SECRET);
    assertThat(ApiKeyTokens.matches(new ApiKeyTokens.Presented(KEY_ID, SECRET), stored)).isTrue();
    assertThat(ApiKeyTokens.matches(new ApiKeyTokens.Presented(KEY_ID, "cd".repeat(32)), stored))
        .isFalse();
    assertThat(ApiKeyTokens.matches(new ApiKeyTokens.Presented("fedcba9876543210", SECRET), stored))
        .isFalse();
  }
}
