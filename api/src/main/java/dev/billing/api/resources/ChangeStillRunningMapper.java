package dev.billing.api.resources;

import dev.billing.api.subscriptions.ChangeStillRunning;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.ExceptionMapper;

/**
 * A change the workflow accepted but did not finish in time: 202 with the subscription's Location.
 * The workflow will finish it; a client that retried blindly could ask for it twice (a second
 * refund, a second manual charge), so it is told to look first.
 */
public final class ChangeStillRunningMapper implements ExceptionMapper<ChangeStillRunning> {

  @Context
  private UriInfo uri;

  @Override
  public Response toResponse(ChangeStillRunning e) {
    String accountId = uri.getPathParameters().getFirst("accountId");
    return Response.accepted(new SubscriptionResource.AcceptedView(e.subscriptionId(),
            "Accepted; the change is still being carried out. GET the Location to see its outcome "
                + "before asking again."))
        .location(uri.getBaseUriBuilder()
            .path(SubscriptionResource.class)
            .path(SubscriptionResource.class, "get")
            .build(accountId, e.subscriptionId()))
        .build();
  }
}
