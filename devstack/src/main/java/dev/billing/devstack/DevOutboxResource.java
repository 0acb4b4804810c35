package dev.billing.devstack;

import dev.billing.activities.notifications.Notification;
import dev.billing.activities.notifications.OutboxNotifier;
import dev.billing.api.views.Timestamps;
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

  public record MessageView(String messageId, String kind, String to, String subject, String textBody,
      String at, String accountId, String subscriptionId) {
    static MessageView of(Notification n) {
      return new MessageView(n.messageId(), n.kind().name(), n.to(), n.subject(), n.textBody(),
          Timestamps.instant(n.at()), n.accountId(), n.subscriptionId());
    }
  }

  public record OutboxView(List<MessageView> items) {}

  @GET
  public OutboxView list() {
    return new OutboxView(outbox.sent().stream().map(MessageView::of).toList());
  }
}
