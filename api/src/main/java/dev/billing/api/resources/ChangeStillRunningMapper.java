package dev.billing.api.resources;

import dev.billing.api.subscriptions.ChangeStillRunning;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.ExceptionMapper;

/**
 * A change the workflow accepted but did not finish in time, or finished with money whose outcome
 * is still unknown: 202 with the subscription's Location, the request id (a retry with it as the
 * Idempotency-Key is answered, never applied twice) and what is pending.
 */
public final class ChangeStillRunningMapper implements ExceptionMapper<ChangeStillRunning> {

  @Context private UriInfo uri;

  @Override
  public Response toResponse(ChangeStillRunning e) {
    String accountId = uri.getPathParameters().getFirst("accountId");
    String detail =
        e.pending() == null
            ? "Accepted; the change is still being carried out. GET the Location to see its outcome "
                + "before asking again."
            : "Accepted; the payment gateway has not confirmed the money yet and the change is resolved "
                + "once it does. GET the Location to see its outcome; a retry must carry the same "
                + "Idempotency-Key.";
    return Response.accepted(
            new ChangeAcceptedView(
                e.subscriptionId(),
                e.requestId(),
                e.pending() == null ? "the change is still being carried out" : e.pending(),
                detail))
        .location(
            uri.getBaseUriBuilder()
                .path(SubscriptionResource.class)
                .path(SubscriptionResource.class, "get")
                .build(accountId, e.subscriptionId()))
        .build();
  }

  /**
   * What a 202 for a change says.
   *
   * @param requestId the change's request id: the client's Idempotency-Key, or the id generated
   * @param pending what is pending, e.g. the upgrade's charge and its gateway key
   */
  public record ChangeAcceptedView(
      String subscriptionId, String requestId, String pending, String detail) {}
}
