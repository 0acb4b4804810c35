package dev.billing.devstack;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.List;

/**
 * What the dev stack's stand-in for a merchant's product ({@link DevWebhookReceiver}) accepted,
 * oldest first, each with the endpoint whose secret signed it: the walk-through's view of merchant
 * events as a product receives them. In memory, like everything in the dev stack.
 */
@Path("/v1/dev/webhooks")
@Produces(MediaType.APPLICATION_JSON)
public final class DevWebhooksResource {

  /**
   * @param endpointId the registered endpoint whose secret the signature verified with
   * @param event the body as delivered
   */
  public record ReceivedView(
      String endpointId,
      String eventId,
      String type,
      String subscriptionId,
      String receivedAt,
      String signature,
      JsonNode event) {}

  public record ReceivedPage(List<ReceivedView> items) {}

  private final List<ReceivedView> received = new ArrayList<>();

  void add(ReceivedView view) {
    synchronized (received) {
      received.add(view);
    }
  }

  /** {@code ?subscriptionId=} narrows it to one subscription's events. */
  @GET
  public ReceivedPage list(@QueryParam("subscriptionId") String subscriptionId) {
    synchronized (received) {
      return new ReceivedPage(
          received.stream()
              .filter(r -> subscriptionId == null || subscriptionId.equals(r.subscriptionId()))
              .toList());
    }
  }
}
