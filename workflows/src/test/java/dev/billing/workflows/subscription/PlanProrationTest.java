package dev.billing.workflows.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.Lifecycle;
import dev.billing.domain.Money;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.workflows.PlanChangeRequest;
import dev.billing.workflows.PlanChangeRequest.Effective;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

/**
 * The prorated difference of an immediate plan change. Cycle 1 (2028-01-15 to 2028-02-15, 31 days)
 * was paid; the subscription is on cycle 2 at 10.00 USD.
 */
class PlanProrationTest {

  static final LocalDate FEB_1 = LocalDate.parse("2028-02-01");

  static PlanChangeRequest to(String sku, String price) {
    return new PlanChangeRequest(sku, Money.parse(price, "USD"), Effective.NOW, "u");
  }

  @Test
  void anUpgradeInAPaidPeriodChargesTheDifferenceForTheDaysLeftTodayIncluded() {
    Subscription sub = ChangeRulesTest.active();
    assertThat(PlanProration.inPaidDates(sub, FEB_1)).isTrue();
    PlanProration p = PlanProration.of(sub, to("pro", "41.00"), FEB_1, PeriodStatus.COMPLETED);
    assertThat(p.chargeNow()).isTrue();
    assertThat(p.prorated()).isEqualTo(Money.parse("14.00", "USD"));
    assertThat(p.why()).isEqualTo("14 of 31 days left in cycle 1");
  }

  @Test
  void aDowngradeIsCreditedToTheNextCharge() {
    PlanProration p =
        PlanProration.of(
            ChangeRulesTest.active(), to("lite", "3.80"), FEB_1, PeriodStatus.COMPLETED);
    assertThat(p.chargeNow()).isFalse();
    assertThat(p.balance()).isEqualTo(Money.parse("-2.80", "USD"));
    assertThat(p.detail())
        .isEqualTo(
            "plan basic -> lite at 3.80 USD; credit 2.80 USD (14 of 31 days left in"
                + " cycle 1) applied to the next charge");
  }

  @Test
  void aDifferenceBelowTheGatewaysMinimumIsCarriedToTheNextCharge() {
    Subscription owing =
        ChangeRulesTest.sub(
            SubscriptionStatus.ACTIVE, Lifecycle.NONE.withBalance(Money.parse("0.10", "USD")));
    PlanProration p = PlanProration.of(owing, to("plus", "10.62"), FEB_1, PeriodStatus.COMPLETED);
    assertThat(p.chargeNow()).isFalse();
    assertThat(p.prorated()).isEqualTo(Money.parse("0.28", "USD"));
    assertThat(p.balance()).isEqualTo(Money.parse("0.38", "USD"));
    assertThat(p.detail())
        .endsWith("is below the gateway's minimum charge of 0.50 USD: carried to the next charge");
  }

  @Test
  void aRunningPeriodThatWasNeverPaidProratesNothing() {
    PlanProration p =
        PlanProration.of(
            ChangeRulesTest.active(), to("pro", "41.00"), FEB_1, PeriodStatus.PAUSED_SKIPPED);
    assertThat(p.chargeNow()).isFalse();
    assertThat(p.prorated().minor()).isZero();
    assertThat(p.detail())
        .isEqualTo(
            "plan basic -> pro at 41.00 USD (cycle 1 is PAUSED_SKIPPED, not paid: no proration)");
  }

  @Test
  void nothingIsProratedInATrialOrBeforeTheFirstPayment() {
    Subscription trial = ChangeRulesTest.sub(SubscriptionStatus.TRIALING, null);
    assertThat(PlanProration.inPaidDates(trial, FEB_1)).isFalse();
    PlanProration p = PlanProration.of(trial, to("pro", "41.00"), FEB_1, null);
    assertThat(p.detail())
        .isEqualTo("plan basic -> pro at 41.00 USD (nothing paid is running: no proration)");
  }
}
