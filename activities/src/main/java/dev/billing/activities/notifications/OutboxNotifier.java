package dev.billing.activities.notifications;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps notifications in memory instead of mailing them, deduplicated by message id: for tests of
 * billing that do not look at email (the API's, the worker's fault injection). The worker process
 * and the dev stack send real email ({@link EmailNotifier}).
 */
public final class OutboxNotifier implements Notifier {
  private final Map<String, Notification> byMessageId = new LinkedHashMap<>();

  @Override
  public synchronized Delivery send(Notification notification) {
    return byMessageId.putIfAbsent(notification.messageId(), notification) == null
        ? Delivery.sent()
        : Delivery.alreadySent();
  }

  /** Every notification accepted, oldest first. */
  public synchronized List<Notification> sent() {
    return List.copyOf(byMessageId.values());
  }
}
