package dev.billing.activities.notifications;

import dev.billing.store.LoggedNotification;
import dev.billing.store.NotificationLog;
import dev.billing.store.NotificationStatus;
import java.time.InstantSource;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * Real email: looks the message id up in the notification log, sends through SMTP when it is not
 * there, and logs the server's final answer (accepted or bounced) with a conditional put. So a
 * retried activity skips what the server already took, and a message that could not be handed over
 * (server down, 4xx) is not logged and goes out on the next attempt, under the same Message-ID.
 */
public final class EmailNotifier implements Notifier {
  private static final Logger log = LoggerFactory.getLogger(EmailNotifier.class);

  private final NotificationLog notificationLog;
  private final SmtpMailer mailer;
  private final InstantSource clock;

  public EmailNotifier(NotificationLog notificationLog, SmtpMailer mailer, InstantSource clock) {
    this.notificationLog = Objects.requireNonNull(notificationLog, "notificationLog");
    this.mailer = Objects.requireNonNull(mailer, "mailer");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public Delivery send(Notification n) {
    Optional<LoggedNotification> logged =
        notificationLog.find(n.accountId(), n.subscriptionId(), n.messageId());
    if (logged.isPresent()) {
      LoggedNotification entry = logged.get();
      log.info(
          "Message {} ({}) of subscription {} already {}: not sent again",
          n.messageId(),
          n.kind(),
          n.subscriptionId(),
          entry.status());
      return entry.status() == NotificationStatus.BOUNCED
          ? Delivery.bounced(entry.detail(), true)
          : Delivery.alreadySent();
    }
    try {
      mailer.send(n);
    } catch (RecipientRejectedException bounce) {
      log.warn(
          "Message {} ({}) of subscription {} bounced: {} refused {}",
          n.messageId(),
          n.kind(),
          n.subscriptionId(),
          mailer.server(),
          bounce.getMessage());
      record(n, NotificationStatus.BOUNCED, bounce.getMessage());
      return Delivery.bounced(bounce.getMessage(), false);
    } catch (MailUnavailableException | MailRejectedException e) {
      log.warn(
          "Message {} ({}) of subscription {} not sent: {}",
          n.messageId(),
          n.kind(),
          n.subscriptionId(),
          e.getMessage());
      throw e;
    }
    record(n, NotificationStatus.SENT, null);
    log.info(
        "Message {} ({}) of subscription {} accepted by {}",
        n.messageId(),
        n.kind(),
        n.subscriptionId(),
        mailer.server());
    return Delivery.sent();
  }

  /**
   * The server has answered: failing now would make the caller retry and send again. A log write
   * that fails is reported and swallowed; the only cost is that a later retry of this same message,
   * if there ever is one, would not be recognised.
   */
  private void record(Notification n, NotificationStatus status, String detail) {
    try {
      notificationLog.recordOnce(
          new LoggedNotification(
              n.accountId(),
              n.subscriptionId(),
              n.messageId(),
              n.cycle(),
              n.kind().name(),
              n.to(),
              status,
              n.at(),
              clock.instant(),
              detail,
              null));
    } catch (SdkException e) {
      log.error(
          "Message {} of subscription {} was {} but the notification log could not record it: {}",
          n.messageId(),
          n.subscriptionId(),
          status,
          e.toString());
    }
  }
}
