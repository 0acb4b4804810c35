package dev.billing.api.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.billing.api.errors.ApiProblem;
import dev.billing.api.resources.PathIds;
import io.dropwizard.auth.Authenticator;
import java.net.MalformedURLException;
import java.net.URI;
import java.text.ParseException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bearer JWTs of the configured OIDC issuer: signature by a key of the issuer's JWKS (fetched and
 * cached by nimbus-jose-jwt), exact {@code iss}, {@code aud} containing ours, {@code exp} in the
 * future (60 s skew), a {@code sub}, and a role claim. The principal is {@code jwt:<sub>}.
 */
public final class JwtAuthenticator implements Authenticator<String, BillingPrincipal> {
  private static final Logger LOG = LoggerFactory.getLogger(JwtAuthenticator.class);
  private static final int CONNECT_TIMEOUT_MS = 2_000;
  private static final int READ_TIMEOUT_MS = 2_000;
  private static final int JWKS_SIZE_LIMIT = 256 * 1024;

  /** Printable ASCII without spaces: a subject goes into histories and logs as it is. */
  private static final Pattern SUBJECT = Pattern.compile("[\\x21-\\x7E]{1,200}");

  private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
  private final JwtSettings settings;

  public JwtAuthenticator(JwtSettings settings) {
    if (!settings.enabled()) {
      throw new IllegalArgumentException("JWT authentication is not configured");
    }
    this.settings = settings;
    JWKSource<SecurityContext> keys;
    try {
      keys =
          JWKSourceBuilder.<SecurityContext>create(
                  URI.create(settings.jwksUrl()).toURL(),
                  new DefaultResourceRetriever(
                      CONNECT_TIMEOUT_MS, READ_TIMEOUT_MS, JWKS_SIZE_LIMIT))
              .retrying(false)
              .build();
    } catch (MalformedURLException e) {
      throw new IllegalArgumentException("auth.jwt.jwksUrl is not a URL", e);
    }
    Set<JWSAlgorithm> algorithms =
        settings.algorithms().stream().map(JWSAlgorithm::parse).collect(Collectors.toSet());
    processor.setJWSKeySelector(new JWSVerificationKeySelector<>(algorithms, keys));
    processor.setJWTClaimsSetVerifier(
        new DefaultJWTClaimsVerifier<>(
            settings.audience(),
            new JWTClaimsSet.Builder().issuer(settings.issuer()).build(),
            Set.of("sub", "exp")));
  }

  /** Three base64url parts separated by dots: worth handing to the JWT parser. */
  public static boolean looksLikeJwt(String token) {
    return token.chars().filter(c -> c == '.').count() == 2;
  }

  @Override
  public Optional<BillingPrincipal> authenticate(String token) {
    JWTClaimsSet claims;
    try {
      claims = processor.process(token, null);
    } catch (RateLimitReachedException e) {
      // A key id the cached JWKS lacks, asked again too soon after the last fetch: an unknown key.
      return Optional.empty();
    } catch (KeySourceException e) {
      // The issuer's keys could not be fetched and none are cached: not the caller's fault.
      LOG.warn("JWKS of {} unavailable: {}", settings.issuer(), e.toString());
      throw ApiProblem.unavailable(
          "The identity provider's signing keys could not be fetched; retry.");
    } catch (ParseException | BadJOSEException | JOSEException e) {
      LOG.debug("bearer token rejected: {}", e.getMessage());
      return Optional.empty();
    }
    String subject = claims.getSubject();
    if (subject == null || !SUBJECT.matcher(subject).matches()) {
      return Optional.empty();
    }
    String name = "jwt:" + subject;
    List<String> roles = stringOrList(claims.getClaim(settings.roleClaim()));
    if (roles.contains(Role.OPERATOR.wireName())) {
      return Optional.of(BillingPrincipal.operator(name));
    }
    if (roles.contains(Role.ACCOUNT.wireName())
        && claims.getClaim(settings.accountClaim()) instanceof String account
        && PathIds.isValid(account)) {
      return Optional.of(BillingPrincipal.account(name, account));
    }
    return Optional.empty();
  }

  private static List<String> stringOrList(Object claim) {
    if (claim instanceof String value) {
      return List.of(value);
    }
    if (claim instanceof List<?> values) {
      return values.stream().filter(String.class::isInstance).map(String.class::cast).toList();
    }
    return List.of();
  }
}
