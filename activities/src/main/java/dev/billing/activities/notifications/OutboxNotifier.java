package dev.billing.activities.notifications;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps notifications in memory instead of delivering them: the dev stack shows them and tests
 * assert them. Deduplicates by message id like a mail relay that honours Message-ID.
 */
public final class OutboxNotifier implements Notifier {
  private final Map<String, Notification> byMessageId = new LinkedHashMap<>();

  @Override
  public synchronized boolean send(Notification notification) {
    return byMessageId.putIfAbsent(notification.messageId(), notification) == null;
  }

  /** Every notification accepted, oldest first. */
  public synchronized List<Notification> sent() {
    return List.copyOf(byMessageId.values());
  }
}
