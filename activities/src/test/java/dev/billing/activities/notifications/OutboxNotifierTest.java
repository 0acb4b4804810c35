package dev.billing.activities.notifications;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class OutboxNotifierTest {
  private final OutboxNotifier outbox = new OutboxNotifier();

  @Test
  void keepsNotificationsInOrderAndAcceptsAMessageIdOnce() {
    Notification first = notification("<reminder.1.sub-1@billing>", "first");
    Notification second = notification("<reminder.1.sub-2@billing>", "second");
    Notification resend = notification("<reminder.1.sub-1@billing>", "changed on retry");

    assertThat(outbox.send(first)).isEqualTo(Delivery.sent());
    assertThat(outbox.send(second)).isEqualTo(Delivery.sent());
    assertThat(outbox.send(resend)).isEqualTo(Delivery.alreadySent());

    assertThat(outbox.sent()).containsExactly(first, second);
  }

  private static Notification notification(String messageId, String subject) {
    return new Notification(
        messageId,
        NotificationKind.PAYMENT_REMINDER,
        "ana@example.com",
        new RenderedMessage(subject, "body", "<p>body</p>"),
        Instant.parse("2026-01-29T05:00:00Z"),
        "acc-1",
        "sub-1",
        1);
  }
}
