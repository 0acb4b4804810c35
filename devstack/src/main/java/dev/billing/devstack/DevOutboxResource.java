package dev.billing.devstack;

import dev.billing.activities.notifications.Notification;
import dev.billing.activities.notifications.OutboxNotifier;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/** What the notifier accepted for delivery, oldest first. */
@Path("/v1/dev/outbox")
@Produces(MediaType.APPLICATION_JSON)
public final class DevOutboxResource {

  private final OutboxNotifier outbox;

  DevOutboxResource(OutboxNotifier outbox) {
    this.outbox = outbox;
  }

  public record OutboxView(List<Notification> items) {}

  @GET
  public OutboxView list() {
    return new OutboxView(outbox.sent());
  }
}
