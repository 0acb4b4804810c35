package dev.billing.api.auth;

import jakarta.ws.rs.core.SecurityContext;
import java.security.Principal;

/**
 * The actor a resource records in the subscription history (the {@code requestedBy} of a workflow
 * request): the authenticated principal's stable name, such as {@code key:3f9a0c1b2d4e5f60} or
 * {@code jwt:auth0|42}. Never a credential.
 *
 * <pre>{@code
 * public SubscriptionView pause(..., @Context SecurityContext security) {
 *   workflows.pause(id, new PauseRequest(cycles, until, reason, Actors.of(security)));
 * }
 * }</pre>
 */
public final class Actors {
  private Actors() {}

  /**
   * @throws IllegalStateException when the request has no principal: {@link AccessFilter} lets no
   *     such request reach a resource other than the webhooks, so this is a wiring fault
   */
  public static String of(SecurityContext security) {
    Principal principal = security == null ? null : security.getUserPrincipal();
    if (principal == null) {
      throw new IllegalStateException("no authenticated principal on a request that changes state");
    }
    return principal.getName();
  }
}
