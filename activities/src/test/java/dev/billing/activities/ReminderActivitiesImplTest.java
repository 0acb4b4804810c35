package dev.billing.activities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.billing.activities.notifications.Delivery;
import dev.billing.activities.notifications.Mails;
import dev.billing.activities.notifications.MessageTemplates;
import dev.billing.activities.notifications.ReminderMessages;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.store.HistoryEntry;
import dev.billing.store.LoggedNotification;
import dev.billing.store.NotificationStatus;
import dev.billing.store.PageRequest;
import dev.billing.workflows.activities.ReminderActivities;
import dev.billing.workflows.activities.SendReminderInput;
import dev.billing.workflows.activities.SendReminderResult;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * ReminderActivitiesImpl with real SMTP (GreenMail), the notification log and the store on DynamoDB
 * Local.
 */
class ReminderActivitiesImplTest {
  private static final String ID = "<reminder.1.sub-1@billing>";

  private MailActivities t;
  private ReminderActivities activities;

  @BeforeEach
  void start() {
    t = new MailActivities();
    t.dynamo.store.createSubscription(Fixtures.creation());
    activities = t.stub(ReminderActivities.class);
  }

  @AfterEach
  void stop() {
    t.close();
  }

  @Test
  void sendsTheReminderAndRecordsIt() {
    SendReminderResult result = activities.sendReminder(Fixtures.reminder());

    assertThat(result).isEqualTo(new SendReminderResult(ID, false, 2));
    assertThat(t.mail.received())
        .singleElement()
        .satisfies(
            mail -> {
              assertThat(Mails.header(mail, "Message-ID")).isEqualTo(ID);
              assertThat(Mails.subject(mail))
                  .isEqualTo("Your pro-monthly payment of $9.99 is due on February 1, 2026");
            });
    assertThat(t.dynamo.store.getSubscription("acc-1", "sub-1"))
        .get()
        .satisfies(
            s -> {
              assertThat(s.version()).isEqualTo(2);
              assertThat(s.lastReminderAt()).isEqualTo(Fixtures.REMINDED_AT);
              assertThat(s.nextReminderDate()).isNull();
            });
    assertThat(history())
        .extracting(HistoryEntry::event)
        .containsExactly(HistoryEvent.SUBSCRIPTION_CREATED, HistoryEvent.REMINDER_SENT);
  }

  @Test
  void aResendNeitherSendsNorRecordsTwice() {
    activities.sendReminder(Fixtures.reminder());

    SendReminderResult again = activities.sendReminder(Fixtures.reminder());

    assertThat(again).isEqualTo(new SendReminderResult(ID, true, 2));
    assertThat(t.mail.received()).hasSize(1);
    assertThat(history()).hasSize(2);
  }

  @Test
  void aRetryAfterTheSendCompletesTheRecordWithoutSendingAgain() {
    // The first attempt got the message accepted (and logged), then failed before the store write.
    Delivery first =
        t.notifier.send(new ReminderMessages(new MessageTemplates()).reminder(Fixtures.reminder()));
    assertThat(first).isEqualTo(Delivery.sent());

    SendReminderResult retry = activities.sendReminder(Fixtures.reminder());

    assertThat(retry).isEqualTo(new SendReminderResult(ID, true, 2));
    assertThat(t.mail.received()).hasSize(1);
    assertThat(history())
        .extracting(HistoryEntry::event)
        .containsExactly(HistoryEvent.SUBSCRIPTION_CREATED, HistoryEvent.REMINDER_SENT);
  }

  @Test
  void duringAnOutageNothingIsRecordedAndTheRetryAfterItSendsAndRecordsOnce() {
    t.mail.stop();

    ActivityFailure down =
        catchThrowableOfType(
            ActivityFailure.class, () -> activities.sendReminder(Fixtures.reminder()));

    ApplicationFailure cause = (ApplicationFailure) down.getCause();
    assertThat(cause.getType()).isEqualTo("MailServerUnavailable");
    assertThat(cause.isNonRetryable()).isFalse();
    assertThat(cause.getOriginalMessage())
        .startsWith("Message " + ID + " (PAYMENT_REMINDER) of subscription sub-1");
    assertThat(history())
        .extracting(HistoryEntry::event)
        .containsExactly(HistoryEvent.SUBSCRIPTION_CREATED);
    assertThat(t.dynamo.notificationLog.messagesOf("acc-1", "sub-1")).isEmpty();

    t.mail.start();
    SendReminderResult retry = activities.sendReminder(Fixtures.reminder());

    assertThat(retry).isEqualTo(new SendReminderResult(ID, false, 2));
    assertThat(t.mail.received()).hasSize(1);
    assertThat(history())
        .extracting(HistoryEntry::event)
        .containsExactly(HistoryEvent.SUBSCRIPTION_CREATED, HistoryEvent.REMINDER_SENT);
  }

  @Test
  void aBouncedReminderIsRecordedAndReportedSoTheWorkflowNeitherRetriesNorMissesIt() {
    Subscription bouncing =
        Fixtures.subscription(
            "sub-2", Money.parse("9.99", "USD"), "UTC", SubscriptionStatus.ACTIVE, null);
    bouncing =
        new Subscription(
            bouncing.accountId(),
            bouncing.subscriptionId(),
            bouncing.sku(),
            bouncing.price(),
            "bounce@example.com",
            bouncing.paymentMethod(),
            bouncing.schedule(),
            bouncing.status(),
            1,
            bouncing.nextReminderDate(),
            bouncing.nextPaymentDate(),
            null,
            null,
            bouncing.createdAt(),
            1,
            "req-hash-2");
    t.dynamo.store.createSubscription(Fixtures.creation(bouncing));

    SendReminderResult result = activities.sendReminder(Fixtures.reminderOf(bouncing));

    assertThat(result)
        .isEqualTo(
            new SendReminderResult(
                "<reminder.1.sub-2@billing>",
                false,
                2,
                true,
                "550 5.1.1 <bounce@example.com>: mailbox unavailable"));
    assertThat(t.mail.received()).isEmpty();
    assertThat(t.dynamo.notificationLog.messagesOf("acc-1", "sub-2"))
        .singleElement()
        .extracting(LoggedNotification::status)
        .isEqualTo(NotificationStatus.BOUNCED);
    assertThat(t.dynamo.store.getHistory("sub-2", PageRequest.first(10)).items())
        .extracting(HistoryEntry::event)
        .containsExactly(HistoryEvent.SUBSCRIPTION_CREATED, HistoryEvent.REMINDER_SENT);
  }

  @Test
  void aStaleRecordIsARetryableStaleWrite() {
    activities.sendReminder(Fixtures.reminder());
    RecordInput same = Fixtures.reminderRecorded();
    SendReminderInput competing =
        new SendReminderInput(
            "<reminder.1b.sub-1@billing>",
            "ana@example.com",
            "pro-monthly",
            Fixtures.PRICE,
            LocalDate.of(2026, 2, 1),
            "Visa •••• 4242",
            new RecordInput(
                "cycle-1/reminder-again",
                same.previous(),
                same.next(),
                same.event(),
                same.process(),
                same.actor(),
                same.detail(),
                null,
                null,
                same.at()));

    ActivityFailure failure =
        catchThrowableOfType(ActivityFailure.class, () -> activities.sendReminder(competing));

    ApplicationFailure cause = (ApplicationFailure) failure.getCause();
    assertThat(cause.getType()).isEqualTo("StaleWrite");
    assertThat(cause.isNonRetryable()).isFalse();
    assertThat(history()).hasSize(2);
  }

  private List<HistoryEntry> history() {
    return t.dynamo.store.getHistory("sub-1", PageRequest.first(10)).items();
  }
}
