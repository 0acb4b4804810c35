package dev.billing.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Money;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.Term;
import dev.billing.domain.Upcoming;
import dev.billing.workflows.FakeBillingActivities.Call;
import dev.billing.workflows.activities.ChargeInput;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What {@link Upcoming} reads from the record is what the workflow then charges: the same cycle, on
 * the same date, for the same amount. Cycle 1 is due 2028-01-15 and paid then (19.99 USD).
 */
@Timeout(60)
class UpcomingChargeTest {
  private static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);

  private static Subscription record(BillingTestEnvironment t) {
    List<RecordInput> writes = t.fake.writes();
    return writes.get(writes.size() - 1).next();
  }

  private static ChargeInput chargeOf(BillingTestEnvironment t, long cycle) {
    return t.fake.charges().stream()
        .map(Call::input)
        .filter(c -> c.cycle() == cycle)
        .findFirst()
        .orElseThrow();
  }

  @Test
  void aDowngradesCreditLowersTheNextChargeAsShown() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-up1", ON_THE_15TH, "19.99"));
      t.runUntil("2028-01-20T10:00:00Z");
      workflow.changePlan(
          new PlanChangeRequest(
              "LITE", Money.parse("9.99", "USD"), PlanChangeRequest.Effective.NOW, "user:ada"));
      t.runUntil("2028-02-10T00:00:00Z");

      Upcoming.Charge shown = (Upcoming.Charge) Upcoming.of(record(t));
      assertThat(shown.lines()).hasSize(2);
      assertThat(shown.lines().get(1).kind()).isEqualTo(Upcoming.Kind.CREDIT);
      t.runUntil("2028-02-16T00:00:00Z");

      ChargeInput charged = chargeOf(t, shown.cycle());
      assertThat(shown.dueDate()).isEqualTo(LocalDate.parse("2028-02-15"));
      assertThat(charged.amount()).isEqualTo(shown.amount());
    }
  }

  @Test
  void aPlanChangeAtPeriodEndPricesTheNextChargeAsShown() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-up2", ON_THE_15TH, "19.99"));
      t.runUntil("2028-01-20T10:00:00Z");
      workflow.changePlan(
          new PlanChangeRequest(
              "PRO",
              Money.parse("29.99", "USD"),
              PlanChangeRequest.Effective.PERIOD_END,
              "user:ada"));
      t.runUntil("2028-02-10T00:00:00Z");

      Upcoming.Charge shown = (Upcoming.Charge) Upcoming.of(record(t));
      assertThat(shown.amount()).isEqualTo(Money.parse("29.99", "USD"));
      t.runUntil("2028-02-16T00:00:00Z");

      assertThat(chargeOf(t, shown.cycle()).amount()).isEqualTo(shown.amount());
    }
  }
}
