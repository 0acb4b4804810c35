package dev.billing.workflows;

import static dev.billing.workflows.WorkflowTimeAssert.assertAllAt;
import static dev.billing.workflows.WorkflowTimeAssert.assertAt;
import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Money;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.RecordInput;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.Call;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.activities.ChargeInput;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowStub;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Charge dates and instants over many continued-as-new runs, with exact calendars. */
@Timeout(60)
class SubscriptionWorkflowScheduleTest {

  @Test
  void monthlyOnThe31stFor24CyclesAcrossALeapYear() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2027-12-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(
              BillingTestEnvironment.requested(
                  "sub-31",
                  new BillingSchedule(YearMonth.of(2027, 12), 31, Term.MONTHLY, "UTC", 3),
                  "9.99"));
      assertThat(workflow.created().subscription().version()).isEqualTo(1);

      t.runUntil("2029-12-01T00:00:00Z");

      List<String> dueDates =
          List.of(
              "2027-12-31",
              "2028-01-31",
              "2028-02-29",
              "2028-03-31",
              "2028-04-30",
              "2028-05-31",
              "2028-06-30",
              "2028-07-31",
              "2028-08-31",
              "2028-09-30",
              "2028-10-31",
              "2028-11-30",
              "2028-12-31",
              "2029-01-31",
              "2029-02-28",
              "2029-03-31",
              "2029-04-30",
              "2029-05-31",
              "2029-06-30",
              "2029-07-31",
              "2029-08-31",
              "2029-09-30",
              "2029-10-31",
              "2029-11-30");
      List<Call<ChargeInput>> charges = t.fake.charges();
      assertThat(charges)
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly(
              "charge:sub-31:1:1",
              "charge:sub-31:2:1",
              "charge:sub-31:3:1",
              "charge:sub-31:4:1",
              "charge:sub-31:5:1",
              "charge:sub-31:6:1",
              "charge:sub-31:7:1",
              "charge:sub-31:8:1",
              "charge:sub-31:9:1",
              "charge:sub-31:10:1",
              "charge:sub-31:11:1",
              "charge:sub-31:12:1",
              "charge:sub-31:13:1",
              "charge:sub-31:14:1",
              "charge:sub-31:15:1",
              "charge:sub-31:16:1",
              "charge:sub-31:17:1",
              "charge:sub-31:18:1",
              "charge:sub-31:19:1",
              "charge:sub-31:20:1",
              "charge:sub-31:21:1",
              "charge:sub-31:22:1",
              "charge:sub-31:23:1",
              "charge:sub-31:24:1");
      assertAllAt(
          charges.stream().map(Call::startedAt).toList(),
          dueDates.stream().map(d -> d + "T00:00:00Z").toList());
      assertThat(charges)
          .extracting(c -> c.input().amount())
          .containsOnly(Money.parse("9.99", "USD"));
      assertThat(charges).extracting(Call::attempt).containsOnly(1);

      // One run per cycle: each charge came from its own run, which ended by continuing as new.
      List<String> runIds = charges.stream().map(Call::runId).toList();
      assertThat(runIds).doesNotHaveDuplicates().hasSize(24);
      assertThat(t.fake.reminders()).extracting(Call::runId).containsExactlyElementsOf(runIds);
      for (String runId : runIds) {
        List<HistoryEvent> events = t.history("sub-31", runId);
        assertThat(t.count(events, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW))
            .isEqualTo(1);
        assertThat(events.get(events.size() - 1).getEventType())
            .isEqualTo(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW);
      }

      List<RecordInput> paid =
          t.fake.records().stream().map(Call::input).filter(r -> r.receipt() != null).toList();
      assertThat(paid)
          .extracting(r -> r.period().dueDate().toString())
          .containsExactlyElementsOf(dueDates);
      assertThat(paid)
          .extracting(RecordInput::changeId)
          .containsExactlyElementsOf(
              IntStream.rangeClosed(1, 24).mapToObj(c -> "cycle-" + c + "/charge-1").toList());
      assertThat(paid).extracting(r -> r.period().status()).containsOnly(PeriodStatus.COMPLETED);
      assertThat(paid)
          .extracting(r -> r.receipt().transactionId())
          .containsExactlyElementsOf(
              IntStream.rangeClosed(1, 24).mapToObj(c -> "txn_sub-31_" + c).toList());
      // Creation is version 1, then a reminder and a charge per cycle: 2 versions each.
      assertThat(t.fake.writes())
          .extracting(w -> w.next().version())
          .containsExactlyElementsOf(IntStream.rangeClosed(1, 49).mapToObj(v -> (long) v).toList());

      SubscriptionState waiting = t.existing("sub-31").state();
      assertThat(waiting.phase()).isEqualTo(Phase.WAITING_FOR_REMINDER);
      assertThat(waiting.waitingUntil()).isEqualTo(Instant.parse("2029-12-28T00:00:00Z"));
      assertThat(waiting.subscription().cycle()).isEqualTo(25);
      assertThat(waiting.subscription().nextPaymentDate()).isEqualTo(LocalDate.of(2029, 12, 31));
      assertThat(waiting.subscription().nextReminderDate()).isEqualTo(LocalDate.of(2029, 12, 28));
      assertThat(waiting.subscription().version()).isEqualTo(49);
      assertAt(waiting.subscription().lastPaymentAt(), "2029-11-30T00:00:00Z");
      assertThat(waiting.lastOutcome()).isEqualTo("cycle 25 is next; subscription is ACTIVE");

      SubscriptionState cancelled =
          t.existing("sub-31").cancel(new CancelRequest("moving away", "user:ada"));
      assertThat(cancelled.subscription().status()).isEqualTo(SubscriptionStatus.CANCELLED);
      assertThat(cancelled.subscription().version()).isEqualTo(50);
      assertThat(WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class).phase())
          .isEqualTo(Phase.ENDED);
    }
  }

  @Test
  void yearlyOnFebruary29() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.start(
          BillingTestEnvironment.requested(
              "sub-leap",
              new BillingSchedule(YearMonth.of(2028, 2), 29, Term.YEARLY, "UTC", 7),
              "120.00"));

      t.runUntil("2032-03-01T00:00:00Z");

      List<Call<ChargeInput>> charges = t.fake.charges();
      assertAllAt(
          charges.stream().map(Call::startedAt).toList(),
          List.of(
              "2028-02-29T00:00:00Z",
              "2029-02-28T00:00:00Z",
              "2030-02-28T00:00:00Z",
              "2031-02-28T00:00:00Z",
              "2032-02-29T00:00:00Z"));
      assertThat(charges)
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly(
              "charge:sub-leap:1:1",
              "charge:sub-leap:2:1",
              "charge:sub-leap:3:1",
              "charge:sub-leap:4:1",
              "charge:sub-leap:5:1");
      assertThat(charges)
          .extracting(c -> c.input().amount().toPlainString())
          .containsOnly("120.00");
      assertAllAt(
          t.fake.reminders().stream().map(Call::startedAt).toList(),
          List.of(
              "2028-02-22T00:00:00Z",
              "2029-02-21T00:00:00Z",
              "2030-02-21T00:00:00Z",
              "2031-02-21T00:00:00Z",
              "2032-02-22T00:00:00Z"));
      assertThat(t.fake.reminders())
          .extracting(r -> r.input().paymentDate().toString())
          .containsExactly("2028-02-29", "2029-02-28", "2030-02-28", "2031-02-28", "2032-02-29");

      SubscriptionState state = t.existing("sub-leap").state();
      assertThat(state.subscription().cycle()).isEqualTo(6);
      assertThat(state.subscription().nextPaymentDate()).isEqualTo(LocalDate.of(2033, 2, 28));
      assertThat(state.subscription().nextReminderDate()).isEqualTo(LocalDate.of(2033, 2, 21));
    }
  }

  @Test
  void parisRemindersAndChargesFollowLocalMidnightAcrossBothDaylightSavingChanges() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-03-01T00:00:00Z")) {
      t.start(
          BillingTestEnvironment.requested(
              "sub-paris",
              new BillingSchedule(YearMonth.of(2028, 3), 30, Term.MONTHLY, "Europe/Paris", 5),
              "14.90"));

      t.runUntil("2028-11-01T00:00:00Z");

      // Paris is UTC+1 until 2028-03-26 and again from 2028-10-29, UTC+2 in between.
      List<String> reminders =
          List.of(
              "2028-03-24T23:00:00Z",
              "2028-04-24T22:00:00Z",
              "2028-05-24T22:00:00Z",
              "2028-06-24T22:00:00Z",
              "2028-07-24T22:00:00Z",
              "2028-08-24T22:00:00Z",
              "2028-09-24T22:00:00Z",
              "2028-10-24T22:00:00Z");
      List<String> charges =
          List.of(
              "2028-03-29T22:00:00Z",
              "2028-04-29T22:00:00Z",
              "2028-05-29T22:00:00Z",
              "2028-06-29T22:00:00Z",
              "2028-07-29T22:00:00Z",
              "2028-08-29T22:00:00Z",
              "2028-09-29T22:00:00Z",
              "2028-10-29T23:00:00Z");
      assertAllAt(t.fake.reminders().stream().map(Call::startedAt).toList(), reminders);
      assertAllAt(
          t.fake.reminders().stream().map(r -> r.input().record().at()).toList(), reminders);
      assertAllAt(
          t.fake.reminders().stream().map(r -> r.input().record().next().lastReminderAt()).toList(),
          reminders);
      assertAllAt(t.fake.charges().stream().map(Call::startedAt).toList(), charges);
      assertThat(t.fake.charges())
          .extracting(c -> c.input().description())
          .startsWith("PRO-MONTHLY subscription, period 1 due 2028-03-30");

      SubscriptionState state = t.existing("sub-paris").state();
      assertThat(state.subscription().nextPaymentDate()).isEqualTo(LocalDate.of(2028, 11, 30));
      assertThat(state.waitingUntil()).isEqualTo(Instant.parse("2028-11-24T23:00:00Z"));
    }
  }
}
