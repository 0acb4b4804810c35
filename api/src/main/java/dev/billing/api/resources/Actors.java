package dev.billing.api.resources;

import jakarta.ws.rs.core.SecurityContext;
import java.security.Principal;

/**
 * Who asked for a change, as recorded in the subscription's history. The one place that decides
 * it: an authenticated request's principal, otherwise {@value #API} (requests carry no principal
 * until authentication exists).
 */
public final class Actors {

  /** The actor of a request without an authenticated principal. */
  public static final String API = "api";

  private Actors() {}

  public static String of(SecurityContext security) {
    Principal principal = security == null ? null : security.getUserPrincipal();
    return principal == null || principal.getName() == null || principal.getName().isBlank()
        ? API : principal.getName();
  }
}
