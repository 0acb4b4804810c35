package dev.billing.api.auth;

import dev.billing.api.auth.keys.ApiKeyTokens;
import io.dropwizard.auth.AuthenticationException;
import io.dropwizard.auth.Authenticator;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;

/**
 * One bearer credential, three kinds, told apart by shape: the dev stack's operator key (exact
 * match, only when the application was started in dev mode), an API key ({@code bk_...}), or a JWT
 * (when an issuer is configured). Anything else authenticates nobody.
 */
final class BearerAuthenticator implements Authenticator<String, BillingPrincipal> {
  static final String DEV_PRINCIPAL = "dev";

  private final byte[] devKey;
  private final Authenticator<String, BillingPrincipal> apiKeys;
  private final Authenticator<String, BillingPrincipal> jwt;

  /**
   * @param devKey the dev stack's operator key, or null outside dev mode
   * @param jwt null when no OIDC issuer is configured
   */
  BearerAuthenticator(
      String devKey,
      Authenticator<String, BillingPrincipal> apiKeys,
      Authenticator<String, BillingPrincipal> jwt) {
    this.devKey = devKey == null ? null : devKey.getBytes(StandardCharsets.UTF_8);
    this.apiKeys = apiKeys;
    this.jwt = jwt;
  }

  @Override
  public Optional<BillingPrincipal> authenticate(String token) throws AuthenticationException {
    if (devKey != null && MessageDigest.isEqual(devKey, token.getBytes(StandardCharsets.UTF_8))) {
      return Optional.of(BillingPrincipal.operator(DEV_PRINCIPAL));
    }
    if (token.startsWith(ApiKeyTokens.PREFIX)) {
      return apiKeys.authenticate(token);
    }
    if (jwt != null && JwtAuthenticator.looksLikeJwt(token)) {
      return jwt.authenticate(token);
    }
    return Optional.empty();
  }
}
