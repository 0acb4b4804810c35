package dev.billing.activities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

import dev.billing.activities.notifications.MessageTemplates;
import dev.billing.activities.notifications.OutboxNotifier;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.RecordResult;
import dev.billing.domain.Subscription;
import dev.billing.store.HistoryEntry;
import dev.billing.store.PageRequest;
import dev.billing.workflows.BillingActivityOptions;
import dev.billing.workflows.activities.LoadPeriodInput;
import dev.billing.workflows.activities.RecordActivities;
import io.temporal.activity.ActivityOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestActivityEnvironment;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * RecordActivitiesImpl over the real DynamoBillingStore on DynamoDB Local, for changes without a
 * receipt (receipt mail: EveryMessageKindTest, ReceiptMailTest).
 */
class RecordActivitiesImplTest {
  private LocalDynamo dynamo;
  private TestActivityEnvironment env;
  private RecordActivities activities;

  @BeforeEach
  void start() {
    dynamo = new LocalDynamo();
    env = TestActivityEnvironment.newInstance();
    env.registerActivitiesImplementations(
        new RecordActivitiesImpl(dynamo.store, new OutboxNotifier(), new MessageTemplates()));
    activities =
        env.newActivityStub(
            RecordActivities.class,
            ActivityOptions.newBuilder().setStartToCloseTimeout(Duration.ofSeconds(30)).build());
  }

  @AfterEach
  void stop() {
    env.close();
    dynamo.close();
  }

  @Test
  void createsThenUpdatesAndWritesHistory() {
    assertThat(activities.record(Fixtures.creation())).isEqualTo(new RecordResult(1, false));
    assertThat(activities.record(Fixtures.reminderRecorded()))
        .isEqualTo(new RecordResult(2, false));

    assertThat(dynamo.store.getSubscription("acc-1", "sub-1"))
        .hasValue(Fixtures.created().withReminderSent(Fixtures.REMINDED_AT).withVersion(2));
    assertThat(dynamo.store.getHistory("sub-1", PageRequest.first(10)).items())
        .extracting(HistoryEntry::version, HistoryEntry::event, HistoryEntry::process)
        .containsExactly(
            tuple(1L, HistoryEvent.SUBSCRIPTION_CREATED, Process.API),
            tuple(2L, HistoryEvent.REMINDER_SENT, Process.REMINDER));
  }

  @Test
  void aScheduledPeriodIsNoPeriodToTheWorkflow() {
    activities.record(Fixtures.creation());

    assertThat(dynamo.store.getPeriod("acc-1", "sub-1", 1))
        .get()
        .extracting(Period::status)
        .isEqualTo(PeriodStatus.SCHEDULED);
    assertThat(activities.loadPeriod(new LoadPeriodInput("acc-1", "sub-1", 1)).period()).isNull();
  }

  @Test
  @Timeout(30)
  void aCallerMistakeFailsOnceAsANonRetryableInvalidChangeUnderTheRecordRetryPolicy() {
    RecordActivities withPolicy =
        env.newActivityStub(RecordActivities.class, BillingActivityOptions.RECORD_CHANGE);
    RecordInput versionZero =
        new RecordInput(
            "create",
            null,
            Fixtures.created().withVersion(0),
            HistoryEvent.SUBSCRIPTION_CREATED,
            Process.API,
            "api",
            "created",
            null,
            null,
            Fixtures.CREATED_AT);

    ActivityFailure failure =
        catchThrowableOfType(ActivityFailure.class, () -> withPolicy.record(versionZero));

    ApplicationFailure cause = (ApplicationFailure) failure.getCause();
    assertThat(cause.getType()).isEqualTo(ActivityFailureTypes.INVALID_CHANGE);
    assertThat(cause.isNonRetryable()).isTrue();
    assertThat(cause.getOriginalMessage())
        .isEqualTo(
            "Invalid change create of subscription sub-1: a"
                + " created subscription starts at version 1 or higher. A bug in the caller; not retried.");
    assertThat(dynamo.store.getSubscription("acc-1", "sub-1")).isEmpty();
  }

  @Test
  void aRetryOfACommittedChangeIsAlreadyApplied() {
    activities.record(Fixtures.creation());
    activities.record(Fixtures.reminderRecorded());

    assertThat(activities.record(Fixtures.creation())).isEqualTo(new RecordResult(1, true));
    assertThat(activities.record(Fixtures.reminderRecorded())).isEqualTo(new RecordResult(2, true));
    assertThat(dynamo.store.getHistory("sub-1", PageRequest.first(10)).items()).hasSize(2);
  }

  @Test
  void anOlderOrCompetingWriteIsARetryableStaleWrite() {
    activities.record(Fixtures.creation());
    activities.record(Fixtures.reminderRecorded());
    RecordInput competing =
        new RecordInput(
            "cycle-1/cancel",
            Fixtures.created(),
            Fixtures.created().withVersion(2),
            HistoryEvent.SUBSCRIPTION_CANCELLED,
            Process.API,
            "api:alice",
            "cancelled",
            null,
            null,
            Instant.parse("2026-01-30T00:00:00Z"));

    ActivityFailure failure =
        catchThrowableOfType(ActivityFailure.class, () -> activities.record(competing));

    ApplicationFailure cause = (ApplicationFailure) failure.getCause();
    assertThat(cause.getType()).isEqualTo("StaleWrite");
    assertThat(cause.isNonRetryable()).isFalse();
    assertThat(cause.getOriginalMessage())
        .startsWith("Stale write of subscription sub-1 (change cycle-1/cancel, version 2): ")
        .endsWith("retrying until an operator reconciles it (docs/operations.md).");
    assertThat(dynamo.store.getSubscription("acc-1", "sub-1"))
        .get()
        .extracting(Subscription::version, Subscription::lastReminderAt)
        .containsExactly(2L, Fixtures.REMINDED_AT);
  }
}
