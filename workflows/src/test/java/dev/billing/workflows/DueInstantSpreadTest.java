package dev.billing.workflows;

import static dev.billing.workflows.WorkflowTimeAssert.assertAllAt;
import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.Call;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import java.time.Duration;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Reminders and charges at the subscription's own time of day (DueInstants), guarded by a version.
 */
@Timeout(60)
class DueInstantSpreadTest {

  @Test
  void aScheduleWithAWindowIsRemindedAndChargedAtItsTimeOfDayEveryCycle() {
    BillingSchedule newYork =
        new BillingSchedule(
            YearMonth.of(2028, 1), 20, Term.MONTHLY, "America/New_York", 3, Duration.ofHours(6));
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.start(BillingTestEnvironment.requested("sub-spread", newYork, "19.90")).created();

      t.runUntil("2028-02-21T00:00:00Z");

      // sub-spread's offset in six hours is 00:33:14 after midnight in New York (05:00Z in winter).
      assertAllAt(
          t.fake.reminders().stream().map(Call::startedAt).toList(),
          List.of("2028-01-17T05:33:14Z", "2028-02-17T05:33:14Z"));
      assertAllAt(
          t.fake.charges().stream().map(Call::startedAt).toList(),
          List.of("2028-01-20T05:33:14Z", "2028-02-20T05:33:14Z"));
      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-spread:1:1", "charge:sub-spread:2:1");
      // The period keeps its date: only the time of day moved.
      assertThat(
              t.fake.records().stream()
                  .map(Call::input)
                  .filter(r -> r.period() != null)
                  .map(r -> r.period().dueDate().toString())
                  .toList())
          .containsExactly("2028-01-20", "2028-02-20");
      for (String runId : t.fake.charges().stream().map(Call::runId).toList()) {
        assertThat(versionMarkers(t.history("sub-spread", runId))).isEmpty();
      }
    }
  }

  /**
   * Day 30 -> 31 in April keeps the cycle's due date (April 30, the 31st clamped), so its reminder
   * day is still today; the move comes after midnight but before the subscription's time of day.
   */
  @Test
  void aBillingDayMoveOnTheReminderDayBeforeItsTimeKeepsThatReminder() {
    BillingSchedule newYork =
        new BillingSchedule(
            YearMonth.of(2028, 4), 30, Term.MONTHLY, "America/New_York", 3, Duration.ofHours(6));
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-04-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-spread", newYork, "19.90"));
      workflow.created();
      t.runUntil(
          "2028-04-27T04:10:00Z"); // 00:10 in New York (EDT); the reminder is due at 00:33:14

      workflow.changeBillingDay(new BillingDayChange(31, "user:ada"));
      t.runUntil("2028-05-01T00:00:00Z");

      assertAllAt(
          t.fake.reminders().stream().map(Call::startedAt).toList(),
          List.of("2028-04-27T04:33:14Z"));
      assertAllAt(
          t.fake.charges().stream().map(Call::startedAt).toList(), List.of("2028-04-30T04:33:14Z"));
      assertThat(versionMarkers(t.history("sub-spread", t.fake.charges().get(0).runId())))
          .isEmpty();
    }
  }

  @Test
  void aScheduleWithoutAWindowStaysAtMidnight() {
    BillingSchedule newYork =
        new BillingSchedule(YearMonth.of(2028, 1), 20, Term.MONTHLY, "America/New_York", 3);
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.start(BillingTestEnvironment.requested("sub-midnight", newYork, "19.90")).created();

      t.runUntil("2028-01-21T00:00:00Z");

      assertAllAt(
          t.fake.reminders().stream().map(Call::startedAt).toList(),
          List.of("2028-01-17T05:00:00Z"));
      assertAllAt(
          t.fake.charges().stream().map(Call::startedAt).toList(), List.of("2028-01-20T05:00:00Z"));
      assertThat(versionMarkers(t.history("sub-midnight", t.fake.charges().get(0).runId())))
          .isEmpty();
    }
  }

  private static List<String> versionMarkers(List<HistoryEvent> events) {
    return events.stream()
        .filter(e -> e.getEventType() == EventType.EVENT_TYPE_MARKER_RECORDED)
        .filter(e -> e.getMarkerRecordedEventAttributes().getMarkerName().equals("Version"))
        .map(
            e ->
                e.getMarkerRecordedEventAttributes()
                    .getDetailsMap()
                    .get("changeId")
                    .getPayloads(0)
                    .getData()
                    .toStringUtf8()
                    .replace("\"", ""))
        .toList();
  }
}
