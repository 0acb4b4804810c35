package dev.billing.store;

import static dev.billing.store.Attrs.n;
import static dev.billing.store.Attrs.s;
import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Lifecycle;
import dev.billing.domain.Money;
import dev.billing.domain.MovedPeriod;
import dev.billing.domain.PaidUpgradeCharge;
import dev.billing.domain.Pause;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.PendingPlanChange;
import dev.billing.domain.PendingUpgradeCharge;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodRefund;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.ReTermedPeriod;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The lifecycle attributes and refunds: written only when they apply, read back exactly. */
class LifecycleItemsTest extends StoreTestBase {
  private static final Instant AT = Instant.parse("2026-02-20T10:00:00Z");

  @Test
  void aPausedSubscriptionWithAHeldPlanChangeAndACreditReadsBackAsWritten() {
    String account = id("acc");
    String sub = id("sub");
    Subscription v1 = Fixtures.subscription(account, sub);
    store.createSubscription(Fixtures.created(v1));
    Lifecycle lifecycle =
        new Lifecycle(
                LocalDate.of(2026, 2, 15),
                new Pause(LocalDate.of(2026, 2, 20), LocalDate.of(2026, 4, 15), "travelling"),
                new PendingPlanChange("SKU-BASIC", Money.parse("4.99", "USD"), 3),
                null,
                Money.parse("-1.25", "USD"),
                null,
                new PendingUpgradeCharge(
                    "req-up",
                    "charge:" + sub + ":req:abc",
                    "SKU-MAX",
                    Money.parse("19.99", "USD"),
                    Money.parse("8.39", "USD"),
                    1,
                    new PaymentMethod("pm_card_visa", "Visa •••• 4242"),
                    AT.minusSeconds(300)))
            .withUpgradePaid(
                new PaidUpgradeCharge(
                    1,
                    "charge:" + sub + ":req:paid",
                    "txn_up",
                    Money.parse("3.10", "USD"),
                    LocalDate.of(2026, 1, 20),
                    LocalDate.of(2026, 2, 15)));
    Subscription paused =
        v1.withStatus(SubscriptionStatus.PAUSED)
            .withLifecycle(lifecycle)
            .withDates(null, LocalDate.of(2026, 4, 15))
            .withVersion(2);

    store.updateSubscription(
        new RecordInput(
            "pause/v2",
            v1,
            paused,
            HistoryEvent.SUBSCRIPTION_PAUSED,
            Process.API,
            "user:ada",
            "paused",
            null,
            null,
            AT));

    Subscription read = store.getSubscription(account, sub).orElseThrow();
    assertThat(read).isEqualTo(paused);
    assertThat(billingItem("ACC#" + account, "SUB#" + sub + "#SKU#SKU-PRO"))
        .containsEntry("PausedSince", s("2026-02-20"))
        .containsEntry("PausedUntil", s("2026-04-15"))
        .containsEntry("PendingSKU", s("SKU-BASIC"))
        .containsEntry("PendingAmount", n("4.99"))
        .containsEntry("PendingEffectiveCycle", n("3"))
        .containsEntry("Balance", n("-1.25"))
        .containsEntry("TrialEndsOn", s("2026-02-15"))
        .containsEntry("UpgradeKey", s("charge:" + sub + ":req:abc"))
        .doesNotContainKey("CancelsOn")
        .doesNotContainKey("NextReminderDate");
  }

  @Test
  void aHeldTermSwitchAndAnUpgradeSwitchingTermReadBackWithTheirTerm() {
    String account = id("acc");
    String sub = id("sub");
    Subscription v1 = Fixtures.subscription(account, sub);
    store.createSubscription(Fixtures.created(v1));
    Lifecycle lifecycle =
        Lifecycle.NONE
            .withPendingChange(
                new PendingPlanChange("SKU-YEAR", Money.parse("99.00", "USD"), 2, Term.YEARLY))
            .withUpgradeCharge(
                new PendingUpgradeCharge(
                    "req-year",
                    "charge:" + sub + ":req:year",
                    "SKU-YEAR",
                    Money.parse("99.00", "USD"),
                    Money.parse("89.87", "USD"),
                    1,
                    new PaymentMethod("pm_card_visa", "Visa •••• 4242"),
                    AT.minusSeconds(300),
                    Term.YEARLY))
            .withReTermed(
                new ReTermedPeriod(
                    1,
                    LocalDate.of(2026, 2, 10),
                    LocalDate.of(2026, 2, 28),
                    Money.parse("6.42", "USD"),
                    Money.parse("0.00", "USD"),
                    List.of(
                        new ReTermedPeriod.Share(
                            "charge:" + sub + ":req:up", "txn_up", Money.parse("1.25", "USD")))))
            .withMoved(
                new MovedPeriod(1, LocalDate.of(2026, 1, 31), LocalDate.of(2026, 2, 28), 15, 31));
    Subscription next = v1.withLifecycle(lifecycle).withVersion(2);

    store.updateSubscription(
        new RecordInput(
            "plan-scheduled/v2",
            v1,
            next,
            HistoryEvent.PLAN_CHANGE_SCHEDULED,
            Process.API,
            "user:ada",
            "yearly",
            null,
            null,
            AT));

    assertThat(store.getSubscription(account, sub).orElseThrow()).isEqualTo(next);
    assertThat(billingItem("ACC#" + account, "SUB#" + sub + "#SKU#SKU-PRO"))
        .containsEntry("PendingTerm", s("YEARLY"))
        .containsEntry("UpgradeTerm", s("YEARLY"))
        .containsKey("ReTermed");
    assertThat(billingItem("ACC#" + account, "SUB#" + sub + "#SKU#SKU-PRO").get("ReTermed").m())
        .containsEntry("From", s("2026-02-10"))
        .containsEntry("Carried", n("6.42"));
    assertThat(billingItem("ACC#" + account, "SUB#" + sub + "#SKU#SKU-PRO").get("Moved").m())
        .containsEntry("From", s("2026-01-31"))
        .containsEntry("PaidUntil", s("2026-02-28"))
        .containsEntry("AddedWorth", n(15))
        .containsEntry("AddedPer", n(31));
  }

  @Test
  void aRefundedPeriodKeepsItsRunningTotalAndIsReadByCycle() {
    String account = id("acc");
    String sub = id("sub");
    Subscription v1 = Fixtures.subscription(account, sub);
    store.createSubscription(Fixtures.created(v1));
    Period refunded =
        new Period(
            account,
            sub,
            1,
            LocalDate.of(2026, 2, 15),
            Money.parse("9.99", "USD"),
            PeriodStatus.REFUNDED,
            1,
            "txn-1",
            null,
            null,
            AT,
            Money.parse("5.00", "USD"),
            List.of(
                new PeriodRefund(
                    "refund:" + sub + ":1:req:a",
                    "req-a",
                    "txn-1",
                    Money.parse("5.00", "USD"),
                    AT,
                    "re_1"),
                // Sent, no answer yet: its key is kept all the same.
                new PeriodRefund(
                    "refund:" + sub + ":1:req:b",
                    "req-b",
                    "txn-up",
                    Money.parse("1.20", "USD"),
                    AT.plusSeconds(60),
                    null)));

    store.updateSubscription(
        new RecordInput(
            "refund-1/v2",
            v1,
            v1.withVersion(2),
            HistoryEvent.PAYMENT_REFUNDED,
            Process.API,
            "user:ops",
            "refunded 5.00",
            refunded,
            null,
            AT));

    assertThat(store.getPeriod(account, sub, 1)).contains(refunded);
    assertThat(store.getPeriod(account, sub, 2)).isEmpty();
    assertThat(refunded.refundable()).isEqualTo(Money.parse("4.99", "USD"));
  }
}
