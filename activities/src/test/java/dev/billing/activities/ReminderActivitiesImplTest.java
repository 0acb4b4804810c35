package dev.billing.activities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.billing.activities.notifications.Notification;
import dev.billing.activities.notifications.NotificationKind;
import dev.billing.activities.notifications.OutboxNotifier;
import dev.billing.domain.HistoryEvent;
import dev.billing.store.HistoryEntry;
import dev.billing.store.PageRequest;
import dev.billing.workflows.activities.RecordInput;
import dev.billing.workflows.activities.ReminderActivities;
import dev.billing.workflows.activities.SendReminderInput;
import dev.billing.workflows.activities.SendReminderResult;
import io.temporal.activity.ActivityOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestActivityEnvironment;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** ReminderActivitiesImpl with the outbox and the real DynamoBillingStore on DynamoDB Local. */
class ReminderActivitiesImplTest {
  private static final Notification EXPECTED = new Notification(
      "<reminder.1.sub-1@billing>",
      NotificationKind.PAYMENT_REMINDER,
      "ana@example.com",
      "Your pro-monthly payment of 9.99 USD is due on 2026-02-01",
      """
      Hello,

      your pro-monthly subscription renews on 2026-02-01.
      We will charge 9.99 USD to Visa •••• 4242 on that day.

      If your payment details are up to date, there is nothing to do.
      """,
      Fixtures.REMINDED_AT,
      "acc-1",
      "sub-1");

  private final OutboxNotifier outbox = new OutboxNotifier();
  private LocalDynamo dynamo;
  private TestActivityEnvironment env;
  private ReminderActivities activities;

  @BeforeEach
  void start() {
    dynamo = new LocalDynamo();
    dynamo.store.createSubscription(Fixtures.creation());
    env = TestActivityEnvironment.newInstance();
    env.registerActivitiesImplementations(new ReminderActivitiesImpl(outbox, dynamo.store));
    activities = env.newActivityStub(ReminderActivities.class,
        ActivityOptions.newBuilder().setStartToCloseTimeout(Duration.ofSeconds(30)).build());
  }

  @AfterEach
  void stop() {
    env.close();
    dynamo.close();
  }

  @Test
  void sendsTheReminderAndRecordsIt() {
    SendReminderResult result = activities.sendReminder(Fixtures.reminder());

    assertThat(result).isEqualTo(new SendReminderResult("<reminder.1.sub-1@billing>", false, 2));
    assertThat(outbox.sent()).containsExactly(EXPECTED);
    assertThat(dynamo.store.getSubscription("acc-1", "sub-1")).get().satisfies(s -> {
      assertThat(s.version()).isEqualTo(2);
      assertThat(s.lastReminderAt()).isEqualTo(Fixtures.REMINDED_AT);
      assertThat(s.nextReminderDate()).isNull();
    });
    assertThat(history()).extracting(HistoryEntry::event)
        .containsExactly(HistoryEvent.SUBSCRIPTION_CREATED, HistoryEvent.REMINDER_SENT);
  }

  @Test
  void aResendNeitherSendsNorRecordsTwice() {
    activities.sendReminder(Fixtures.reminder());

    SendReminderResult again = activities.sendReminder(Fixtures.reminder());

    assertThat(again).isEqualTo(new SendReminderResult("<reminder.1.sub-1@billing>", true, 2));
    assertThat(outbox.sent()).containsExactly(EXPECTED);
    assertThat(history()).hasSize(2);
  }

  @Test
  void aRetryAfterTheSendCompletesTheRecordWithoutSendingAgain() {
    // The first attempt got the message accepted, then failed before the store write.
    outbox.send(EXPECTED);

    SendReminderResult retry = activities.sendReminder(Fixtures.reminder());

    assertThat(retry).isEqualTo(new SendReminderResult("<reminder.1.sub-1@billing>", true, 2));
    assertThat(outbox.sent()).containsExactly(EXPECTED);
    assertThat(history()).extracting(HistoryEntry::event)
        .containsExactly(HistoryEvent.SUBSCRIPTION_CREATED, HistoryEvent.REMINDER_SENT);
  }

  @Test
  void aStaleRecordIsANonRetryableStaleWrite() {
    activities.sendReminder(Fixtures.reminder());
    RecordInput same = Fixtures.reminderRecorded();
    SendReminderInput competing = new SendReminderInput("<reminder.1b.sub-1@billing>",
        "ana@example.com", "pro-monthly", Fixtures.PRICE, LocalDate.of(2026, 2, 1),
        "Visa •••• 4242", new RecordInput("cycle-1/reminder-again", same.previous(), same.next(),
            same.event(), same.process(), same.actor(), same.detail(), null, null, same.at()));

    ActivityFailure failure = catchThrowableOfType(ActivityFailure.class,
        () -> activities.sendReminder(competing));

    ApplicationFailure cause = (ApplicationFailure) failure.getCause();
    assertThat(cause.getType()).isEqualTo("StaleWrite");
    assertThat(cause.isNonRetryable()).isFalse();
    assertThat(history()).hasSize(2);
  }

  private List<HistoryEntry> history() {
    return dynamo.store.getHistory("sub-1", PageRequest.first(10)).items();
  }
}
