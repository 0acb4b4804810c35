package dev.billing.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.DunningPolicy;
import dev.billing.domain.DunningPolicy.FinalOutcome;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentEvent;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.Call;
import dev.billing.workflows.FakeBillingActivities.ChargeMode;
import dev.billing.workflows.activities.ChargeInput;
import java.time.Instant;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A manual repayment of a period left unpaid, whose charge is a bank debit that settles later: the
 * period is recorded at what was charged, the amount fixed when the period was first attempted, not
 * at the plan's price. Cycle 1 (0.49 USD, below the gateway's minimum) is carried into cycle 2's
 * charge of 0.98 USD, due 2028-02-15, declined twice and left unpaid.
 */
@Timeout(60)
class ManualPaymentSettlementTest {
  private static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);

  @Test
  void aSettlingManualPaymentIsRecordedAtTheAmountCharged() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.policy(new DunningPolicy(List.of(2), FinalOutcome.LEAVE_UNPAID));
      t.fake.script(2, ChargeMode.SOFT_DECLINE, ChargeMode.SOFT_DECLINE, ChargeMode.PENDING);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-mp", ON_THE_15TH, "0.49"));
      t.runUntil("2028-02-20T00:00:00Z");
      assertThat(t.fake.period("sub-mp", 2).status()).isEqualTo(PeriodStatus.ERROR);

      SubscriptionState paying = workflow.payNow(new PayNowRequest("user:ada"));
      ChargeInput manual =
          t.fake.charges().stream()
              .map(Call::input)
              .filter(c -> c.cycle() == 2 && c.attempt() == 3)
              .findFirst()
              .orElseThrow();
      assertThat(manual.amount()).isEqualTo(Money.parse("0.98", "USD"));
      assertThat(t.fake.period("sub-mp", 2).status()).isEqualTo(PeriodStatus.PENDING_SETTLEMENT);
      assertThat(t.fake.period("sub-mp", 2).amount()).isEqualTo(manual.amount());

      workflow.paymentEvent(
          new PaymentEvent(
              "evt_mp_settled",
              "sandbox",
              PaymentEvent.Type.CHARGE_SUCCEEDED,
              "sub-mp",
              2,
              manual.idempotencyKey(),
              "txn_sub-mp_2_3",
              null,
              null,
              Instant.parse("2028-02-23T00:00:00Z")));
      t.runUntil("2028-02-24T00:00:00Z");

      assertThat(t.fake.period("sub-mp", 2).status()).isEqualTo(PeriodStatus.COMPLETED);
      assertThat(t.fake.period("sub-mp", 2).amount()).isEqualTo(Money.parse("0.98", "USD"));
      assertThat(paying.subscription().subscriptionId()).isEqualTo("sub-mp");
    }
  }
}
