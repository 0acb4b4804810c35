package dev.billing.api.auth;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.github.benmanes.caffeine.cache.CaffeineSpec;

/**
 * The {@code auth} block of api.yml.
 *
 * @param keyCache Caffeine spec of the cache of verified API keys. Its {@code expireAfterWrite} is
 *     how long a revoked key can keep working on an instance other than the one that revoked it.
 * @param jwt OIDC bearer tokens; off by default
 */
public record AuthSettings(
    @JsonProperty("keyCache") String keyCache, @JsonProperty("jwt") JwtSettings jwt) {

  public static final String DEFAULT_KEY_CACHE = "maximumSize=10000,expireAfterWrite=60s";

  public AuthSettings {
    keyCache = keyCache == null || keyCache.isBlank() ? DEFAULT_KEY_CACHE : keyCache.strip();
    CaffeineSpec.parse(keyCache);
    jwt = jwt == null ? JwtSettings.disabled() : jwt;
  }

  public static AuthSettings defaults() {
    return new AuthSettings(null, null);
  }
}
