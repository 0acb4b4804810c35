package dev.billing.worker;

import dev.billing.activities.notifications.EmailNotifier;
import dev.billing.activities.notifications.Notifier;
import dev.billing.activities.notifications.SmtpMailer;
import dev.billing.activities.notifications.SmtpSettings;
import dev.billing.activities.notifications.SmtpTls;
import dev.billing.runtime.MailSettings;
import dev.billing.store.NotificationLog;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;

/**
 * The worker's two email notifiers over one SMTP server and one notification log: one for notices
 * and reminders, which have their own retried activities, and one with short timeouts for the
 * receipt that RecordChange mails after its commit, where a slow server must not hold the record.
 *
 * @param smtp the settings of the notices' notifier (printable: the password never shows)
 */
public record EmailNotifiers(Notifier notices, Notifier receipts, SmtpSettings smtp) {

  /**
   * Each read, write or connect of the receipt mail waits at most this long: a whole SMTP exchange
   * then stays well inside RecordChange's 30 s start-to-close timeout.
   */
  public static final Duration RECEIPT_TIMEOUT = Duration.ofSeconds(3);

  /**
   * @param env the process environment: the SMTP password is read from it ({@value
   *     SmtpSettings#PASSWORD_ENV}) and nowhere else
   * @throws IllegalArgumentException when the settings cannot work (bad From address, login without
   *     password), so the worker does not start with mail that can never go out
   */
  public static EmailNotifiers create(
      MailSettings mail, Map<String, String> env, NotificationLog log, InstantSource clock) {
    SmtpSettings smtp =
        new SmtpSettings(
            mail.host(),
            mail.port(),
            SmtpTls.parse(mail.tls()),
            mail.username(),
            env.get(SmtpSettings.PASSWORD_ENV),
            mail.from(),
            null,
            null);
    return of(smtp, log, clock);
  }

  public static EmailNotifiers of(SmtpSettings smtp, NotificationLog log, InstantSource clock) {
    return new EmailNotifiers(
        new EmailNotifier(log, new SmtpMailer(smtp), clock),
        new EmailNotifier(log, new SmtpMailer(smtp.withTimeoutsAtMost(RECEIPT_TIMEOUT)), clock),
        smtp);
  }
}
