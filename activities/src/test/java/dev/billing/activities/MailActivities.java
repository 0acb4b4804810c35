package dev.billing.activities;

import dev.billing.activities.notifications.EmailNotifier;
import dev.billing.activities.notifications.MailServer;
import dev.billing.activities.notifications.MessageTemplates;
import dev.billing.activities.notifications.SmtpMailer;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.testing.TestActivityEnvironment;
import java.time.Duration;
import java.time.InstantSource;

/**
 * The three activities that send email, wired as the worker wires them (EmailNotifier: notification
 * log on DynamoDB Local, SMTP to a GreenMail server), in a Temporal test activity environment. Each
 * stub call is one attempt: a test plays Temporal's retries by calling again.
 */
final class MailActivities implements AutoCloseable {
  final LocalDynamo dynamo = new LocalDynamo();
  final MailServer mail = new MailServer();
  final EmailNotifier notifier =
      new EmailNotifier(
          dynamo.notificationLog, new SmtpMailer(mail.settings()), InstantSource.system());
  private final TestActivityEnvironment env = TestActivityEnvironment.newInstance();

  MailActivities() {
    MessageTemplates templates = new MessageTemplates();
    env.registerActivitiesImplementations(
        new NotificationActivitiesImpl(notifier, templates),
        new ReminderActivitiesImpl(notifier, templates, dynamo.store),
        new RecordActivitiesImpl(dynamo.store, notifier, templates));
  }

  <T> T stub(Class<T> activities) {
    return env.newActivityStub(
        activities,
        ActivityOptions.newBuilder()
            .setStartToCloseTimeout(Duration.ofSeconds(30))
            .setRetryOptions(RetryOptions.newBuilder().setMaximumAttempts(1).build())
            .build());
  }

  @Override
  public void close() {
    env.close();
    mail.close();
    dynamo.close();
  }
}
