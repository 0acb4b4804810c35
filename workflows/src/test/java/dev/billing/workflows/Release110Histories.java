package dev.billing.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Money;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.ChargeMode;
import io.temporal.client.UpdateOptions;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateStage;
import java.time.Duration;
import java.time.YearMonth;

/**
 * The scenarios of 1.1.0's checked-in histories ({@code histories/1.1.0/}): each is a path that
 * changed since 1.0.0 behind a {@code Workflow.getVersion} change id.
 */
final class Release110Histories {
  private Release110Histories() {}

  static void record(HistoryFiles files) throws Exception {
    recordUpgradeAfterEndRefunded(files);
    recordCustomerChanged(files);
  }

  /**
   * {@code customer-change}: cycle 2's reminder bounces; then a new email, locale and time zone
   * (Honolulu to Kiritimati, where Feb 15 has begun): recorded with the bounce cleared, and cycle 2
   * charged at once in the same run.
   */
  private static void recordCustomerChanged(HistoryFiles files) throws Exception {
    BillingSchedule honolulu =
        new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "Pacific/Honolulu", 3);
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.mailboxGone(BillingTestEnvironment.EMAIL);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-history-customer", honolulu, "9.99"));
      workflow.created();
      t.runUntil("2028-02-14T12:00:00Z");
      workflow.changeCustomer(
          new CustomerChange(
              "ada@new.example", "fr-FR", "Pacific/Kiritimati", "user:ada", "customer-h"));
      t.runUntil("2028-02-15T00:00:00Z");
      assertThat(t.fake.charges()).hasSize(2);
      files.write(
          t.client,
          "sub-history-customer",
          t.fake.charges().get(1).runId(),
          "customer-changed.json");
    }
  }

  /**
   * {@code upgrade-after-end-refunded}: an upgrade's charge without an answer, the subscription
   * cancelled, the run kept open to look it up; it succeeded, so it is recorded and refunded.
   */
  private static void recordUpgradeAfterEndRefunded(HistoryFiles files) throws Exception {
    BillingSchedule onThe15th =
        new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "America/New_York", 3);
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.chargeModeForKey(
          BillingIds.changeChargeKey("sub-history-upae", "upgrade-h"),
          ChargeMode.CHARGED_NO_ANSWER);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-history-upae", onThe15th, "9.99"));
      workflow.created();
      t.runUntil("2028-01-20T10:00:00Z");
      PlanChangeRequest upgrade =
          new PlanChangeRequest(
              "PRO-MAX",
              Money.parse("19.99", "USD"),
              PlanChangeRequest.Effective.NOW,
              "user:ada",
              "upgrade-h");
      WorkflowClient.startUpdate(
          workflow::changePlan,
          upgrade,
          UpdateOptions.newBuilder(SubscriptionState.class)
              .setUpdateId(upgrade.requestId())
              .setWaitForStage(WorkflowUpdateStage.ACCEPTED)
              .build());
      t.env.sleep(Duration.ofSeconds(10));
      workflow.cancel(
          new CancelRequest("moving", "user:ada", false, true).withRequestId("cancel-h"));
      WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);
      files.write(t.client, "sub-history-upae", null, "upgrade-after-end-refunded.json");
    }
  }
}
