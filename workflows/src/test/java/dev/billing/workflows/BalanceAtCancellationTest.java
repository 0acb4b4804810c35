package dev.billing.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.Call;
import dev.billing.workflows.PlanChangeRequest.Effective;
import dev.billing.workflows.activities.ChargeInput;
import dev.billing.workflows.activities.NotifyCustomerInput;
import io.temporal.client.WorkflowStub;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Money below the gateway's minimum charge (0.50 USD) is never sent: it is owed with the next
 * charge through the balance, and a debt still owed when the subscription ends is written off in
 * the history and the cancellation notice, never dropped silently. Cycle 1 is due 2028-01-15.
 */
@Timeout(60)
class BalanceAtCancellationTest {

  private static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);

  private static Money usd(String amount) {
    return Money.parse(amount, "USD");
  }

  private static RecordInput event(BillingTestEnvironment t, HistoryEvent event) {
    return t.fake.writes().stream().filter(w -> w.event() == event).findFirst().orElseThrow();
  }

  @Test
  void aDebtCarriedBelowTheMinimumIsWrittenOffAtCancellationAndSaidSo() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-debt", ON_THE_15TH, "0.30"));
      t.runUntil("2028-01-20T00:00:00Z");
      assertThat(event(t, HistoryEvent.PAYMENT_CARRIED_OVER).next().lifecycle().balance())
          .isEqualTo(usd("0.30"));

      workflow.cancel(new CancelRequest("moving", "user:ada"));
      WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);

      String sentence =
          "0.30 USD still owed (below the gateway's minimum charge of 0.50 USD) is written"
              + " off; it is not charged";
      RecordInput cancelled = event(t, HistoryEvent.SUBSCRIPTION_CANCELLED);
      assertThat(cancelled.detail()).isEqualTo("moving; " + sentence);
      assertThat(cancelled.next().lifecycle().balance()).isNull();
      assertThat(t.fake.notices())
          .extracting(Call::input)
          .filteredOn(n -> n.kind() == NotifyCustomerInput.Kind.SUBSCRIPTION_CANCELLED)
          .singleElement()
          .satisfies(n -> assertThat(n.reason()).isEqualTo("moving; " + sentence));
      assertThat(t.fake.charges()).isEmpty();
    }
  }

  @Test
  void anUpgradeDifferenceBelowTheMinimumIsCarriedToTheNextChargeNotSent() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-small", ON_THE_15TH, "9.99"));
      t.runUntil("2028-02-14T10:00:00Z");

      // Feb 14 is the last of cycle 1's 31 days: 10.00 x 1/31 = 0.32, below 0.50.
      SubscriptionState changed =
          workflow.changePlan(
              new PlanChangeRequest(
                  "PRO-MAX", usd("19.99"), Effective.NOW, "user:ada", "upgrade-s"));

      assertThat(changed.subscription().sku()).isEqualTo("PRO-MAX");
      assertThat(changed.subscription().lifecycle().balance()).isEqualTo(usd("0.32"));
      assertThat(changed.lastOutcome())
          .contains(
              "0.32 USD (1 of 31 days left in cycle 1) is below the"
                  + " gateway's minimum charge of 0.50 USD: carried to the next charge");
      List<ChargeInput> sent = t.fake.charges().stream().map(Call::input).toList();
      assertThat(sent)
          .noneMatch(c -> BillingIds.isChangeChargeKey("sub-small", c.idempotencyKey()));

      t.runUntil("2028-02-16T00:00:00Z");
      assertThat(t.fake.charges())
          .extracting(c -> c.input().cycle(), c -> c.input().amount())
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(1L, usd("9.99")),
              org.assertj.core.groups.Tuple.tuple(2L, usd("20.31")));
    }
  }
}
