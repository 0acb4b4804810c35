package dev.billing.api.auth;

import io.dropwizard.auth.Authenticator;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The {@link AccessFilter} in front of every resource, with the configured kinds of credential. */
public final class ApiAuthentication {
  private static final Logger LOG = LoggerFactory.getLogger(ApiAuthentication.class);

  private ApiAuthentication() {}

  /**
   * @param apiKeys verifies {@code bk_...} keys (cached)
   * @param devKey the dev stack's operator key; empty outside dev mode
   */
  public static AccessFilter filter(
      AuthSettings settings,
      Authenticator<String, BillingPrincipal> apiKeys,
      Optional<String> devKey) {
    JwtAuthenticator jwt = settings.jwt().enabled() ? new JwtAuthenticator(settings.jwt()) : null;
    if (jwt != null) {
      LOG.info(
          "Bearer JWTs accepted from issuer {} for audience {}",
          settings.jwt().issuer(),
          settings.jwt().audience());
    }
    devKey.ifPresent(
        key ->
            LOG.warn(
                "DEV MODE: requests with 'Authorization: Bearer {}' act as "
                    + "operator (the key comes from BILLING_DEV_API_KEY, default \"dev\"). There is no such key "
                    + "outside the dev stack.",
                key.equals("dev") ? "dev" : "<BILLING_DEV_API_KEY>"));
    return new AccessFilter(new BearerAuthenticator(devKey.orElse(null), apiKeys, jwt));
  }
}
