package dev.billing.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDate;
import java.time.YearMonth;
import org.junit.jupiter.api.Test;

/** MONTHLY <-> YEARLY through a plan change: exact amounts, exact dates from the anchor. */
class TermChangeTest {
  private static Money usd(String amount) {
    return Money.parse(amount, "USD");
  }

  /** Billed on the 31st from January 2027: cycle 1 Jan 31, cycle 2 Feb 28 (clamped). */
  private static final BillingSchedule MONTHLY_31ST =
      new BillingSchedule(YearMonth.of(2027, 1), 31, Term.MONTHLY, "Europe/Paris", 3);

  /** Billed on the 31st from January 2027, yearly: cycle 1 Jan 31 2027, cycle 2 Jan 31 2028. */
  private static final BillingSchedule YEARLY_31ST =
      new BillingSchedule(YearMonth.of(2027, 1), 31, Term.YEARLY, "Europe/Paris", 3);

  @Test
  void monthlyToYearlyMidPeriodCreditsTheUnusedDaysAndChargesTheYearFromThePeriodsStart() {
    // Cycle 1 (Jan 31 - Feb 28, 28 days) paid 9.99; on Feb 10 the switch to 99.00 a year.
    TermChange.Immediate now =
        TermChange.now(
            MONTHLY_31ST,
            2,
            usd("9.99"),
            Term.YEARLY,
            usd("99.00"),
            LocalDate.of(2027, 2, 10),
            true);

    // 9.99 x 18/28 = 6.4221 -> 6.42; 99.00 x 355/365 = 96.2876 -> 96.29.
    assertThat(now.credit()).isEqualTo(usd("6.42"));
    assertThat(now.charge()).isEqualTo(usd("96.29"));
    assertThat(now.net()).isEqualTo(usd("89.87"));
    assertThat(now.nextDue()).isEqualTo(LocalDate.of(2028, 1, 31));
    assertThat(now.schedule().term()).isEqualTo(Term.YEARLY);
    assertThat(now.schedule().billingDay()).isEqualTo(31);
    assertThat(now.schedule().dueDate(1)).isEqualTo(LocalDate.of(2027, 1, 31));
    assertThat(now.schedule().dueDate(2)).isEqualTo(LocalDate.of(2028, 1, 31));
    assertThat(now.schedule().dueDate(3)).isEqualTo(LocalDate.of(2029, 1, 31));
    assertThat(now.why())
        .isEqualTo(
            "355 of 365 days of the yearly period 2027-01-31 to 2028-01-31 at 99.00 USD (96.29 USD)"
                + " less 18 of 28 unused days of cycle 1 at 9.99 USD (6.42 USD)");
  }

  @Test
  void yearlyToMonthlyMidYearCreditsTheRestOfTheYearAgainstTheMonthItIsIn() {
    // Cycle 1 (Jan 31 2027 - Jan 31 2028, 365 days) paid 99.00; on Jun 10 the switch to 9.99.
    TermChange.Immediate now =
        TermChange.now(
            YEARLY_31ST,
            2,
            usd("99.00"),
            Term.MONTHLY,
            usd("9.99"),
            LocalDate.of(2027, 6, 10),
            true);

    // The month it is in: May 31 - Jun 30 (30 days), 20 left: 9.99 x 20/30 = 6.66.
    // The year's unused days: Jun 10 - Jan 31 2028 = 235: 99.00 x 235/365 = 63.7397 -> 63.74.
    assertThat(now.charge()).isEqualTo(usd("6.66"));
    assertThat(now.credit()).isEqualTo(usd("63.74"));
    assertThat(now.net()).isEqualTo(usd("-57.08"));
    assertThat(now.nextDue()).isEqualTo(LocalDate.of(2027, 6, 30));
    assertThat(now.schedule().dueDate(1)).isEqualTo(LocalDate.of(2027, 5, 31));
    assertThat(now.schedule().dueDate(3)).isEqualTo(LocalDate.of(2027, 7, 31));
  }

  @Test
  void yearlyToMonthlyAtPeriodEndKeepsTheDueDateAndThenBillsEveryMonthOnTheClampedDay() {
    BillingSchedule monthly = TermChange.atCycle(YEARLY_31ST, 2, Term.MONTHLY);

    assertThat(monthly.dueDate(2)).isEqualTo(LocalDate.of(2028, 1, 31));
    assertThat(monthly.dueDate(3)).isEqualTo(LocalDate.of(2028, 2, 29));
    assertThat(monthly.dueDate(4)).isEqualTo(LocalDate.of(2028, 3, 31));
    assertThat(monthly.dueDate(5)).isEqualTo(LocalDate.of(2028, 4, 30));
  }

  @Test
  void monthlyToYearlyAtPeriodEndBillsTheYearFromTheNextDueDate() {
    BillingSchedule yearly = TermChange.atCycle(MONTHLY_31ST, 2, Term.YEARLY);

    assertThat(yearly.dueDate(2)).isEqualTo(LocalDate.of(2027, 2, 28));
    // The 31st again from the anchor, not Feb 28 + a year.
    assertThat(yearly.dueDate(3)).isEqualTo(LocalDate.of(2028, 2, 29));
    assertThat(yearly.dueDate(4)).isEqualTo(LocalDate.of(2029, 2, 28));
  }

  @Test
  void withNothingPaidRunningTheNextDueDateStaysAndNoMoneyMoves() {
    TermChange.Immediate trial =
        TermChange.now(
            MONTHLY_31ST,
            1,
            usd("9.99"),
            Term.YEARLY,
            usd("99.00"),
            LocalDate.of(2027, 1, 20),
            false);

    assertThat(trial.net()).isEqualTo(usd("0.00"));
    assertThat(trial.nextDue()).isEqualTo(LocalDate.of(2027, 1, 31));
    assertThat(trial.schedule().dueDate(2)).isEqualTo(LocalDate.of(2028, 1, 31));
  }

  @Test
  void upAndBackTheSameDayNetsToTheRoundingOfTwoShares() {
    LocalDate feb10 = LocalDate.of(2027, 2, 10);
    TermChange.Immediate up =
        TermChange.now(MONTHLY_31ST, 2, usd("9.99"), Term.YEARLY, usd("99.00"), feb10, true);
    TermChange.Immediate back =
        TermChange.now(up.schedule(), 2, usd("99.00"), Term.MONTHLY, usd("9.99"), feb10, true);

    assertThat(back.nextDue()).isEqualTo(LocalDate.of(2027, 2, 28));
    assertThat(back.credit()).isEqualTo(up.charge());
    assertThat(back.charge()).isEqualTo(up.credit());
    assertThat(up.net().plus(back.net())).isEqualTo(usd("0.00"));
  }

  @Test
  void aDueDateOffTheBillingDayIsRefused() {
    assertThatThrownBy(() -> MONTHLY_31ST.withTerm(2, Term.YEARLY, LocalDate.of(2027, 2, 27)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("2027-02-27 is not a date of billing day 31");
  }
}
