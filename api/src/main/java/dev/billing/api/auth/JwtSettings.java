package dev.billing.api.auth;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Bearer JWTs from an OIDC issuer, the second way in besides API keys. Off while {@code issuer} is
 * empty; once set, {@code audience} and {@code jwksUrl} are required.
 *
 * @param issuer the exact {@code iss} of accepted tokens
 * @param audience a value the token's {@code aud} must contain
 * @param jwksUrl where the issuer publishes its signing keys (https, or http on localhost only)
 * @param roleClaim the claim holding "operator" or "account" (a string or a list of strings)
 * @param accountClaim the claim holding the account id of an "account" token
 * @param algorithms the accepted signature algorithms (asymmetric only: "none" and HMAC are never
 *     accepted, so a token cannot be signed with the public key)
 */
public record JwtSettings(
    @JsonProperty("issuer") String issuer,
    @JsonProperty("audience") String audience,
    @JsonProperty("jwksUrl") String jwksUrl,
    @JsonProperty("roleClaim") String roleClaim,
    @JsonProperty("accountClaim") String accountClaim,
    @JsonProperty("algorithms") List<String> algorithms) {

  public static final String DEFAULT_ROLE_CLAIM = "billing_role";
  public static final String DEFAULT_ACCOUNT_CLAIM = "billing_account";
  private static final List<String> DEFAULT_ALGORITHMS = List.of("RS256", "ES256");
  private static final Set<String> ASYMMETRIC =
      Set.of(
          "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA");

  public JwtSettings {
    issuer = blankToNull(issuer);
    audience = blankToNull(audience);
    jwksUrl = blankToNull(jwksUrl);
    roleClaim = roleClaim == null || roleClaim.isBlank() ? DEFAULT_ROLE_CLAIM : roleClaim.strip();
    accountClaim =
        accountClaim == null || accountClaim.isBlank()
            ? DEFAULT_ACCOUNT_CLAIM
            : accountClaim.strip();
    algorithms =
        algorithms == null || algorithms.isEmpty() ? DEFAULT_ALGORITHMS : List.copyOf(algorithms);
    for (String algorithm : algorithms) {
      if (!ASYMMETRIC.contains(algorithm)) {
        throw new IllegalArgumentException(
            "auth.jwt.algorithms: "
                + algorithm
                + " is not accepted; use asymmetric algorithms only, e.g. "
                + DEFAULT_ALGORITHMS);
      }
    }
    if (issuer == null && (audience != null || jwksUrl != null)) {
      throw new IllegalArgumentException("auth.jwt: audience or jwksUrl is set without an issuer");
    }
    if (issuer != null) {
      if (audience == null || jwksUrl == null) {
        throw new IllegalArgumentException(
            "auth.jwt: with an issuer, audience and jwksUrl are required");
      }
      URI uri = URI.create(jwksUrl);
      String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
      boolean local = host.equals("localhost") || host.equals("127.0.0.1");
      if (!"https".equals(uri.getScheme()) && !("http".equals(uri.getScheme()) && local)) {
        throw new IllegalArgumentException(
            "auth.jwt.jwksUrl must be https (http only on localhost)");
      }
    }
  }

  public static JwtSettings disabled() {
    return new JwtSettings(null, null, null, null, null, null);
  }

  public boolean enabled() {
    return issuer != null;
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.strip();
  }
}
