package dev.billing.workflows;

import static dev.billing.workflows.Refusals.assertRefused;
import static dev.billing.workflows.WorkflowTimeAssert.assertAllAt;
import static dev.billing.workflows.WorkflowTimeAssert.assertAt;
import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Lifecycle;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.Call;
import dev.billing.workflows.activities.NotifyCustomerInput;
import io.temporal.client.WorkflowStub;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Pause and resume: what is skipped, when billing restarts, and what is never charged twice. */
@Timeout(60)
class SubscriptionPauseTest {

  /** Due on the 15th (UTC), reminder on the 12th. */
  private static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);

  @Test
  void aPauseForTwoCyclesSkipsThemAndBillingRestartsWithTheThird() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-p2", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-20T09:00:00Z");

      SubscriptionState paused =
          workflow.pause(new PauseRequest(2, null, "travelling", "user:ada"));

      Subscription sub = paused.subscription();
      assertThat(sub.status()).isEqualTo(SubscriptionStatus.PAUSED);
      assertThat(sub.lifecycle().pause().since()).isEqualTo(LocalDate.of(2028, 1, 20));
      assertThat(sub.lifecycle().pause().resumesOn()).isEqualTo(LocalDate.of(2028, 4, 15));
      assertThat(sub.nextReminderDate()).isNull();
      assertThat(sub.nextPaymentDate()).isEqualTo(LocalDate.of(2028, 4, 15));

      t.runUntil("2028-04-16T00:00:00Z");

      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-p2:1:1", "charge:sub-p2:4:1");
      assertAllAt(
          t.fake.charges().stream().map(Call::startedAt).toList(),
          List.of("2028-01-15T00:00:00Z", "2028-04-15T00:00:00Z"));
      assertThat(skipped(t)).containsExactly(2L, 3L);
      assertThat(t.fake.reminders())
          .extracting(c -> c.input().paymentDate())
          .containsExactly(LocalDate.of(2028, 1, 15), LocalDate.of(2028, 4, 15));
      // It resumed by itself in time for the reminder of the payment it restarts with.
      RecordInput resumed = event(t, HistoryEvent.SUBSCRIPTION_RESUMED);
      assertAt(resumed.at(), "2028-04-12T00:00:00Z");
      assertThat(resumed.process()).isEqualTo(Process.PAUSE);
      assertThat(workflow.state().subscription().status()).isEqualTo(SubscriptionStatus.ACTIVE);
      assertThat(t.fake.notices())
          .extracting(c -> c.input().kind())
          .containsExactly(
              NotifyCustomerInput.Kind.SUBSCRIPTION_PAUSED,
              NotifyCustomerInput.Kind.SUBSCRIPTION_RESUMED);
      assertThat(event(t, HistoryEvent.SUBSCRIPTION_PAUSED).actor()).isEqualTo("user:ada");
    }
  }

  @Test
  void aPauseUntilADateRestartsWithTheFirstDueDateOnOrAfterIt() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-until", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-20T00:00:00Z");

      SubscriptionState paused =
          workflow.pause(new PauseRequest(null, LocalDate.of(2028, 3, 1), null, null));

      assertThat(paused.subscription().nextPaymentDate()).isEqualTo(LocalDate.of(2028, 3, 15));
      t.runUntil("2028-03-16T00:00:00Z");
      assertThat(skipped(t)).containsExactly(2L);
      assertAt(event(t, HistoryEvent.SUBSCRIPTION_RESUMED).at(), "2028-03-01T00:00:00Z");
      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-until:1:1", "charge:sub-until:3:1");
    }
  }

  @Test
  void aPausedFebruaryCycleIsSkippedEvenWhenTheNextRemindersFallOnItsDueDate() {
    // Reminders 28 days before: March 1st's goes out on February 1st (2027 is not a leap year),
    // the very instant February's cycle is due.
    BillingSchedule onThe1st =
        new BillingSchedule(YearMonth.of(2027, 1), 1, Term.MONTHLY, "UTC", 28);
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2026-12-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-feb", onThe1st, "9.99"));
      t.runUntil("2027-01-10T00:00:00Z");

      SubscriptionState paused = t.existing("sub-feb").pause(new PauseRequest(1, null, null, null));

      assertThat(paused.subscription().lifecycle().pause().resumesOn())
          .isEqualTo(LocalDate.of(2027, 3, 1));
      t.runUntil("2027-03-02T00:00:00Z");
      assertThat(skipped(t)).containsExactly(2L);
      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-feb:1:1", "charge:sub-feb:3:1");
      assertAt(t.fake.charges().get(1).startedAt(), "2027-03-01T00:00:00Z");
      assertThat(workflow.state().subscription().status()).isEqualTo(SubscriptionStatus.ACTIVE);
    }
  }

  @Test
  void pauseResumePauseResumeInsideOnePeriodNeitherSkipsNorDoublesAPeriod() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-flip", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-20T00:00:00Z");
      workflow.pause(new PauseRequest(null, null, null, null));
      t.runUntil("2028-01-21T00:00:00Z");
      workflow.resume(new ResumeRequest(null));
      t.runUntil("2028-01-22T00:00:00Z");
      workflow.pause(new PauseRequest(null, null, null, null));
      t.runUntil("2028-01-23T00:00:00Z");
      SubscriptionState resumed = workflow.resume(new ResumeRequest(null));

      assertThat(resumed.subscription().cycle()).isEqualTo(2);
      assertThat(resumed.subscription().nextReminderDate()).isEqualTo(LocalDate.of(2028, 2, 12));
      assertThat(resumed.subscription().nextPaymentDate()).isEqualTo(LocalDate.of(2028, 2, 15));
      t.runUntil("2028-03-16T00:00:00Z");
      assertThat(skipped(t)).isEmpty();
      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-flip:1:1", "charge:sub-flip:2:1", "charge:sub-flip:3:1");
      assertThat(
              t.fake.writes().stream()
                  .filter(w -> w.period() != null)
                  .map(w -> w.period().cycle())
                  .toList())
          .containsExactly(1L, 2L, 3L);
    }
  }

  @Test
  void aResumeAfterTheReminderWentOutDoesNotRemindTwice() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-rem", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-13T00:00:00Z");
      workflow.pause(new PauseRequest(null, null, null, null));
      t.runUntil("2028-01-14T00:00:00Z");
      workflow.resume(new ResumeRequest(null));
      t.runUntil("2028-01-16T00:00:00Z");

      assertThat(t.fake.reminders()).hasSize(1);
      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-rem:1:1");
    }
  }

  @Test
  void aTrialThatIsPausedStaysATrialAndIsFirstChargedAfterThePause() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      Subscription trial =
          BillingTestEnvironment.requested("sub-trial", ON_THE_15TH, "9.99")
              .withStatus(SubscriptionStatus.TRIALING)
              .withLifecycle(new Lifecycle(LocalDate.of(2028, 1, 15), null, null, null, null));
      SubscriptionWorkflow workflow = t.start(trial);
      t.runUntil("2028-01-05T00:00:00Z");
      assertThat(workflow.state().subscription().status()).isEqualTo(SubscriptionStatus.TRIALING);

      workflow.pause(new PauseRequest(1, null, null, null));
      t.runUntil("2028-02-13T00:00:00Z");
      assertThat(workflow.state().subscription().status()).isEqualTo(SubscriptionStatus.TRIALING);
      t.runUntil("2028-02-16T00:00:00Z");

      assertThat(skipped(t)).containsExactly(1L);
      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-trial:2:1");
      assertThat(workflow.state().subscription().status()).isEqualTo(SubscriptionStatus.ACTIVE);
    }
  }

  @Test
  void aPausedSubscriptionCanBeCancelledAndThenNothingResumesIt() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-pc", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-20T00:00:00Z");
      workflow.pause(new PauseRequest(null, null, null, null));
      assertRefused(
          () -> workflow.pause(new PauseRequest(null, null, null, null)),
          UpdateRejections.TRANSITION_NOT_ALLOWED,
          "subscription is already paused");
      assertRefused(
          () -> workflow.cancel(new CancelRequest(null, null, true, false)),
          UpdateRejections.TRANSITION_NOT_ALLOWED,
          "subscription is paused: nothing paid runs on; cancel it immediately instead");

      SubscriptionState cancelled = workflow.cancel(new CancelRequest("moving", null));

      assertThat(cancelled.subscription().status()).isEqualTo(SubscriptionStatus.CANCELLED);
      WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);
      assertThat(t.fake.charges()).hasSize(1);
    }
  }

  @Test
  void resumeWhenNotPausedAndAPauseWithBothCyclesAndDateAreRefused() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-no", ON_THE_15TH, "9.99"));
      workflow.created();

      assertRefused(
          () -> workflow.resume(new ResumeRequest(null)),
          UpdateRejections.TRANSITION_NOT_ALLOWED,
          "subscription is not paused");
      assertRefused(
          () -> workflow.pause(new PauseRequest(1, LocalDate.of(2028, 3, 1), null, null)),
          UpdateRejections.TRANSITION_NOT_ALLOWED,
          "give either cycles or until, not both");
      assertRefused(
          () -> workflow.pause(new PauseRequest(null, LocalDate.of(2028, 1, 1), null, null)),
          UpdateRejections.TRANSITION_NOT_ALLOWED,
          "until must be after today (2028-01-01)");
      assertThat(t.fake.records()).extracting(c -> c.input().changeId()).containsExactly("create");
    }
  }

  static List<Long> skipped(BillingTestEnvironment t) {
    return t.fake.writes().stream()
        .filter(w -> w.period() != null && w.period().status() == PeriodStatus.PAUSED_SKIPPED)
        .map(w -> w.period().cycle())
        .toList();
  }

  static RecordInput event(BillingTestEnvironment t, HistoryEvent event) {
    return t.fake.writes().stream().filter(w -> w.event() == event).findFirst().orElseThrow();
  }
}
