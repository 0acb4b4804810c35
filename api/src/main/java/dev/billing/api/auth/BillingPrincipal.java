package dev.billing.api.auth;

import java.security.Principal;
import java.util.Objects;

/**
 * Who made a request, as established by {@link AccessFilter}.
 *
 * @param name a stable, non-secret name recorded as the actor of what the request changes: {@code
 *     key:<keyId>} for an API key, {@code jwt:<sub>} for a token of the OIDC issuer, {@code dev}
 *     for the dev stack's key. Never the credential itself.
 * @param accountId the one account an {@link Role#ACCOUNT} principal may reach; null for operators
 */
public record BillingPrincipal(String name, Role role, String accountId) implements Principal {

  public BillingPrincipal {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(role, "role");
    if ((role == Role.ACCOUNT) != (accountId != null)) {
      throw new IllegalArgumentException(
          "an account principal has exactly one account, an operator none");
    }
  }

  public static BillingPrincipal operator(String name) {
    return new BillingPrincipal(name, Role.OPERATOR, null);
  }

  public static BillingPrincipal account(String name, String accountId) {
    return new BillingPrincipal(name, Role.ACCOUNT, accountId);
  }

  @Override
  public String getName() {
    return name;
  }

  public boolean isOperator() {
    return role == Role.OPERATOR;
  }

  /** Whether this principal may see and change the resources of {@code account}. */
  public boolean mayReach(String account) {
    return isOperator() || accountId.equals(account);
  }
}
