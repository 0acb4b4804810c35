package dev.billing.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.time.YearMonth;
import org.junit.jupiter.api.Test;

/**
 * Monthly on the 31st from May 2027: cycle 1 is paid 2027-05-31 for May 31 - Jun 30 (30 days). On
 * Jun 10 the billing day moves; the dates and amounts of the period in service after it.
 */
class PaidPeriodTest {

  private static final BillingSchedule ON_THE_31ST =
      new BillingSchedule(YearMonth.of(2027, 5), 31, Term.MONTHLY, "UTC", 3);
  private static final LocalDate JUNE_10 = LocalDate.of(2027, 6, 10);

  private static Money usd(String amount) {
    return Money.parse(amount, "USD");
  }

  /** The move to the 15th: cycle 2 from Jun 30 to Jul 15, 15 days of the 31 of Jun 30 - Jul 31. */
  private static MovedPeriod movedTo15th() {
    return MovedPeriod.after(null, ON_THE_31ST, 2, 15, 31);
  }

  @Test
  void withoutAMoveThePeriodIsTheSchedulesAndItsSharesAreUnchanged() {
    PaidPeriod period = PaidPeriod.running(ON_THE_31ST, 2, null);

    assertThat(period.from()).isEqualTo(LocalDate.of(2027, 5, 31));
    assertThat(period.paidUntil()).isEqualTo(LocalDate.of(2027, 6, 30));
    assertThat(period.until()).isEqualTo(LocalDate.of(2027, 6, 30));
    assertThat(period.left(usd("10.00"), JUNE_10))
        .isEqualTo(Proration.share(usd("10.00"), 20, 30))
        .isEqualTo(usd("6.67"));
    assertThat(period.unusedOfCharge(usd("9.99"), JUNE_10)).isEqualTo(usd("6.32"));
    assertThat(period.describeLeft(JUNE_10)).isEqualTo("20 of 30 days left in cycle 1");
  }

  @Test
  void aMoveLaterKeepsTheRealStartWhereTheMovedScheduleStartsAfterToday() {
    BillingSchedule moved = ON_THE_31ST.withBillingDay(2, 15);
    assertThat(moved.dueDate(2)).isEqualTo(LocalDate.of(2027, 7, 15));
    // The defect: the moved schedule dates cycle 1 from Jun 15, after today.
    assertThat(moved.dueDate(1)).isEqualTo(LocalDate.of(2027, 6, 15));

    PaidPeriod period = PaidPeriod.running(moved, 2, movedTo15th());

    assertThat(period.from()).isEqualTo(LocalDate.of(2027, 5, 31));
    assertThat(period.paidUntil()).isEqualTo(LocalDate.of(2027, 6, 30));
    assertThat(period.until()).isEqualTo(LocalDate.of(2027, 7, 15));
    assertThat(period.contains(JUNE_10)).isTrue();
    assertThat(period.contains(LocalDate.of(2027, 5, 30))).isFalse();
    assertThat(period.contains(LocalDate.of(2027, 7, 15))).isFalse();
    assertThat(period.paidDays()).isEqualTo(30);
    assertThat(period.addedDays()).isEqualTo(15);
  }

  @Test
  void theDaysLeftAreWorthThePaidShareAndTheAddedDaysAsTheMovePricedThem() {
    PaidPeriod period = PaidPeriod.running(ON_THE_31ST.withBillingDay(2, 15), 2, movedTo15th());

    // 10.00 x (20/30 + 15/31) = 11.505..., half up 11.51.
    assertThat(period.left(usd("10.00"), JUNE_10)).isEqualTo(usd("11.51"));
    assertThat(period.describeLeft(JUNE_10))
        .isEqualTo(
            "20 of 30 days left in cycle 1 and 15 of 15 days the billing day added (worth 15/31 of"
                + " a period)");
    // In the added days: 10.00 x 14/15 x 15/31 = 4.516..., 4.52.
    assertThat(period.left(usd("10.00"), LocalDate.of(2027, 7, 1))).isEqualTo(usd("4.52"));
    // The added days at the old price are what the move carried: 9.99 x 15/31 = 4.83.
    assertThat(period.left(usd("9.99"), LocalDate.of(2027, 6, 30)))
        .isEqualTo(Proration.share(usd("9.99"), 15, 31))
        .isEqualTo(usd("4.83"));
    // A downgrade's credit is the same amount with the opposite sign.
    assertThat(period.left(usd("-10.00"), JUNE_10)).isEqualTo(usd("-11.51"));
  }

  @Test
  void aRefundGivesBackOnlyTheUnusedPaidDaysOfTheOwnCharge() {
    PaidPeriod period = PaidPeriod.running(ON_THE_31ST.withBillingDay(2, 15), 2, movedTo15th());

    // Jun 11 - Jun 29: 19 of 30 days, 9.99 x 19/30 = 6.327, down to 6.32.
    assertThat(period.unusedPaidDays(JUNE_10)).isEqualTo(19);
    assertThat(period.unusedOfCharge(usd("9.99"), JUNE_10)).isEqualTo(usd("6.32"));
    // In the added days nothing of the own charge is unused (they were carried, not paid).
    assertThat(period.unusedOfCharge(usd("9.99"), LocalDate.of(2027, 7, 1))).isEqualTo(usd("0.00"));
  }

  @Test
  void aSecondMoveOfThePeriodAddsItsShareToTheFirst() {
    BillingSchedule first = ON_THE_31ST.withBillingDay(2, 15);
    BillingSchedule second = first.withBillingDay(2, 20);
    assertThat(second.dueDate(2)).isEqualTo(LocalDate.of(2027, 7, 20));
    // 5 more days, of the 31 of Jul 15 - Aug 15: 15/31 + 5/31 = 20/31.
    MovedPeriod twice = MovedPeriod.after(movedTo15th(), first, 2, 5, 31);
    assertThat(twice)
        .isEqualTo(
            new MovedPeriod(1, LocalDate.of(2027, 5, 31), LocalDate.of(2027, 6, 30), 20, 31));

    PaidPeriod period = PaidPeriod.running(second, 2, twice);
    // 10.00 x (18/30 + 20/31) on Jun 12 = 12.451..., 12.45.
    assertThat(period.left(usd("10.00"), LocalDate.of(2027, 6, 12))).isEqualTo(usd("12.45"));
  }

  @Test
  void aMoveToAClampedEarlierDayKeepsTheThirtyPaidDays() {
    BillingSchedule moved = ON_THE_31ST.withBillingDay(2, 30);
    assertThat(moved.dueDate(2)).isEqualTo(LocalDate.of(2027, 6, 30));
    // The moved schedule starts cycle 1 on May 30, a day before it was paid.
    assertThat(moved.dueDate(1)).isEqualTo(LocalDate.of(2027, 5, 30));
    MovedPeriod none = MovedPeriod.after(null, ON_THE_31ST, 2, 0, 30);

    PaidPeriod period = PaidPeriod.running(moved, 2, none);

    assertThat(period.from()).isEqualTo(LocalDate.of(2027, 5, 31));
    assertThat(period.addedDays()).isZero();
    assertThat(period.contains(LocalDate.of(2027, 5, 30))).isFalse();
    // 10.00 x 20/30 = 6.67, not 20/31 = 6.45.
    assertThat(period.left(usd("10.00"), JUNE_10)).isEqualTo(usd("6.67"));
  }

  @Test
  void aMovedPeriodOfAnotherCycleIsIgnored() {
    BillingSchedule moved = ON_THE_31ST.withBillingDay(2, 15);

    PaidPeriod period = PaidPeriod.running(moved, 3, movedTo15th());

    assertThat(period.cycle()).isEqualTo(2);
    assertThat(period.from()).isEqualTo(LocalDate.of(2027, 7, 15));
    assertThat(period.until()).isEqualTo(LocalDate.of(2027, 8, 15));
  }

  @Test
  void aTermSwitchAfterAMoveCreditsTheRealPeriodsDaysLeft() {
    BillingSchedule moved = ON_THE_31ST.withBillingDay(2, 15);
    PaidPeriod period = PaidPeriod.running(moved, 2, movedTo15th());

    TermChange.Immediate yearly =
        TermChange.now(moved, 2, usd("9.99"), Term.YEARLY, usd("99.00"), JUNE_10, period);

    // The year runs from the 15th before today (May 15, 2027) to May 15, 2028: 340 of 366 days at
    // 99.00 = 91.97, less 9.99 x (20/30 + 15/31) = 11.49 for the days left of the period.
    assertThat(yearly.schedule().dueDate(2)).isEqualTo(LocalDate.of(2028, 5, 15));
    assertThat(yearly.charge()).isEqualTo(usd("91.97"));
    assertThat(yearly.credit()).isEqualTo(usd("11.49"));
    assertThat(yearly.net()).isEqualTo(usd("80.48"));
  }
}
