package dev.billing.api.auth.keys;

import dev.billing.api.auth.BillingPrincipal;
import dev.billing.api.auth.Role;
import io.dropwizard.auth.Authenticator;
import java.util.Optional;

/**
 * Checks a {@code bk_...} key against its stored hash. Unknown, revoked and wrong keys all come out
 * the same (empty): the caller cannot tell which. DynamoDB failures propagate (503, not 401).
 */
public final class ApiKeyAuthenticator implements Authenticator<String, BillingPrincipal> {
  private final ApiKeyStore store;

  public ApiKeyAuthenticator(ApiKeyStore store) {
    this.store = store;
  }

  @Override
  public Optional<BillingPrincipal> authenticate(String token) {
    Optional<ApiKeyTokens.Presented> presented = ApiKeyTokens.parse(token);
    if (presented.isEmpty()) {
      return Optional.empty();
    }
    return store
        .find(presented.get().keyId())
        .filter(key -> !key.revoked())
        .filter(key -> ApiKeyTokens.matches(presented.get(), key.hash()))
        .map(
            key ->
                key.role() == Role.OPERATOR
                    ? BillingPrincipal.operator(key.principalName())
                    : BillingPrincipal.account(key.principalName(), key.accountId()));
  }
}
