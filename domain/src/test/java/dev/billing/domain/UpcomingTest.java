package dev.billing.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import org.junit.jupiter.api.Test;

/**
 * Exact amounts and dates of the next charge; cycle 3 of a plan billed on the 31st is due Feb 29.
 */
class UpcomingTest {
  private static final BillingSchedule ON_THE_31ST =
      new BillingSchedule(YearMonth.of(2027, 12), 31, Term.MONTHLY, "Europe/Berlin", 3);

  private static Money usd(String amount) {
    return Money.parse(amount, "USD");
  }

  /** Cycles 1 and 2 paid: the record is on cycle 3, due 2028-02-29. */
  private static Subscription onCycle3(String price) {
    return new Subscription(
        "acc-1",
        "sub-1",
        "BASIC",
        usd(price),
        "ada@example.com",
        new PaymentMethod("pm_card_visa", "Visa •••• 4242"),
        ON_THE_31ST,
        SubscriptionStatus.ACTIVE,
        3,
        LocalDate.parse("2028-02-26"),
        LocalDate.parse("2028-02-29"),
        null,
        Instant.parse("2028-01-31T00:00:00Z"),
        Instant.parse("2027-12-01T00:00:00Z"),
        7,
        null,
        "en-US",
        Lifecycle.NONE);
  }

  private static Upcoming.Charge charge(Subscription sub) {
    return (Upcoming.Charge) Upcoming.of(sub);
  }

  @Test
  void thePlanAloneOnTheClampedDueDate() {
    Upcoming.Charge next = charge(onCycle3("19.99"));

    assertThat(next.cycle()).isEqualTo(3);
    assertThat(next.dueDate()).isEqualTo(LocalDate.parse("2028-02-29"));
    assertThat(next.lines())
        .containsExactly(
            new Upcoming.Line(Upcoming.Kind.PLAN, "BASIC, 2028-02-29 to 2028-03-30", usd("19.99")));
    assertThat(next.amount()).isEqualTo(usd("19.99"));
    assertThat(next.carried()).isNull();
  }

  @Test
  void aPlanChangeHeldForThisCyclePricesItAndADebtIsAdded() {
    Subscription sub = onCycle3("19.99");
    sub =
        sub.withLifecycle(
            sub.lifecycle()
                .withPendingChange(new PendingPlanChange("PRO", usd("29.99"), 3))
                .withBalance(usd("0.30")));

    Upcoming.Charge next = charge(sub);

    assertThat(next.lines())
        .containsExactly(
            new Upcoming.Line(
                Upcoming.Kind.PLAN,
                "PRO (the plan change from BASIC), 2028-02-29 to 2028-03-30",
                usd("29.99")),
            new Upcoming.Line(
                Upcoming.Kind.BALANCE_OWED, "owed from earlier periods", usd("0.30")));
    assertThat(next.amount()).isEqualTo(usd("30.29"));
  }

  @Test
  void aPlanChangeForALaterCycleLeavesThisOneAtThePlan() {
    Subscription sub = onCycle3("19.99");
    sub =
        sub.withLifecycle(
            sub.lifecycle().withPendingChange(new PendingPlanChange("PRO", usd("29.99"), 4)));

    assertThat(charge(sub).amount()).isEqualTo(usd("19.99"));
  }

  @Test
  void creditPaysUpToThePriceAndKeepsTheRest() {
    Subscription sub = onCycle3("19.99");
    sub = sub.withLifecycle(sub.lifecycle().withBalance(usd("-25.00")));

    Upcoming.Charge next = charge(sub);

    assertThat(next.lines().get(1))
        .isEqualTo(
            new Upcoming.Line(
                Upcoming.Kind.CREDIT, "credit (5.01 USD more is kept)", usd("-19.99")));
    assertThat(next.amount()).isEqualTo(usd("0.00"));
    assertThat(next.carried()).isNull();
  }

  @Test
  void aPartialCreditLowersTheCharge() {
    Subscription sub = onCycle3("19.99");
    sub = sub.withLifecycle(sub.lifecycle().withBalance(usd("-4.99")));

    Upcoming.Charge next = charge(sub);

    assertThat(next.lines().get(1))
        .isEqualTo(new Upcoming.Line(Upcoming.Kind.CREDIT, "credit", usd("-4.99")));
    assertThat(next.amount()).isEqualTo(usd("15.00"));
  }

  @Test
  void aTotalBelowTheGatewayMinimumIsCarriedNotCharged() {
    Subscription sub = onCycle3("0.49");

    Upcoming.Charge next = charge(sub);

    assertThat(next.amount()).isEqualTo(usd("0.00"));
    assertThat(next.carried()).isEqualTo(usd("0.49"));
  }

  @Test
  void aPauseWithADateChargesTheCycleDueThen() {
    Subscription sub =
        onCycle3("19.99")
            .withStatus(SubscriptionStatus.PAUSED)
            .withDates(null, LocalDate.parse("2028-04-30"));

    Upcoming.Charge next = charge(sub);

    assertThat(next.cycle()).isEqualTo(5);
    assertThat(next.dueDate()).isEqualTo(LocalDate.parse("2028-04-30"));
  }

  @Test
  void noChargeAfterTheEndOrWithoutADate() {
    Subscription sub = onCycle3("19.99");

    assertThat(Upcoming.of(sub.withStatus(SubscriptionStatus.CANCELLED)))
        .isEqualTo(new Upcoming.None("the subscription is CANCELLED: nothing more is charged"));
    assertThat(
            Upcoming.of(
                sub.withStatus(SubscriptionStatus.PAUSED)
                    .withLifecycle(
                        sub.lifecycle()
                            .withPause(new Pause(LocalDate.parse("2028-02-01"), null, null)))
                    .withDates(null, null)))
        .isEqualTo(
            new Upcoming.None(
                "the subscription is paused until it is resumed: no charge is scheduled"));
    assertThat(
            Upcoming.of(
                sub.withLifecycle(sub.lifecycle().withCancelsOn(LocalDate.parse("2028-02-29")))))
        .isEqualTo(
            new Upcoming.None("the subscription ends on 2028-02-29 without a further charge"));
  }
}
