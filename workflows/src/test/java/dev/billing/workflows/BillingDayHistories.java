package dev.billing.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Money;
import dev.billing.domain.Term;
import java.time.YearMonth;

/** The 1.1.0 history of {@code billing-day-period} (recorded from {@link Release110Histories}). */
final class BillingDayHistories {
  private BillingDayHistories() {}

  /**
   * {@code billing-day-period}: 9.99 monthly on the 31st (UTC) paid 2027-05-31, the billing day
   * moved to the 15th on 2027-06-10 (cycle 2 to Jul 15, 4.83 carried), upgraded to 19.99 now (11.51
   * for the real period's days left) and cancelled with refundUnused the same day: 6.32 of the
   * period's charge and 11.18 of the upgrade's refunded.
   */
  static void recordMovedUpgradedRefunded(HistoryFiles files) throws Exception {
    BillingSchedule on31st = new BillingSchedule(YearMonth.of(2027, 5), 31, Term.MONTHLY, "UTC", 3);
    String id = "sub-history-billing-day-period";
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2027-05-01T00:00:00Z")) {
      t.start(BillingTestEnvironment.requested(id, on31st, "9.99"));
      t.runUntil("2027-06-10T10:00:00Z");
      SubscriptionWorkflow workflow = t.existing(id);
      workflow.changeBillingDay(new BillingDayChange(15, "user:ada", "bd-period-move"));
      workflow.changePlan(
          new PlanChangeRequest(
              "PRO-MAX",
              Money.parse("19.99", "USD"),
              PlanChangeRequest.Effective.NOW,
              null,
              "user:ada",
              "bd-period-up"));
      workflow.cancel(new CancelRequest("moving", "user:ada", false, true, "bd-period-c"));
      t.runUntil("2027-06-12T00:00:00Z");
      assertThat(t.fake.charges().get(1).input().amount()).isEqualTo(Money.parse("11.51", "USD"));
      assertThat(t.fake.refunds())
          .extracting(c -> c.input().amount())
          .containsExactly(Money.parse("6.32", "USD"), Money.parse("11.18", "USD"));
      files.write(
          t.client,
          id,
          t.fake.refunds().get(0).runId(),
          "billing-day-moved-upgraded-refunded.json");
    }
  }
}
