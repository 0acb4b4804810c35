package dev.billing.api.resources;

import jakarta.ws.rs.core.SecurityContext;
import java.security.Principal;

/**
 * Who asked for a change, as recorded in the subscription's history (the {@code requestedBy} of a
 * workflow request). The one place that decides it: the authenticated principal's stable name, set
 * by {@code auth.AccessFilter} on every request but the webhooks: {@code key:<keyId>} for an API
 * key, {@code jwt:<sub>} for an OIDC token, {@code dev} for the dev stack's key. Never a
 * credential. {@value #API} only for a request without a principal, which no resource but the
 * webhooks sees.
 */
public final class Actors {

  /** The actor of a request without an authenticated principal. */
  public static final String API = "api";

  private Actors() {}

  public static String of(SecurityContext security) {
    Principal principal = security == null ? null : security.getUserPrincipal();
    return principal == null || principal.getName() == null || principal.getName().isBlank()
        ? API
        : principal.getName();
  }
}
