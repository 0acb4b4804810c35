package dev.billing.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The unused money of a re-priced period: the docs' examples, to the cent. */
class ReTermedRefundTest {
  private static final BillingSchedule YEARLY_31ST =
      new BillingSchedule(YearMonth.of(2027, 1), 31, Term.YEARLY, "Europe/Paris", 3);
  private static final BillingSchedule MONTHLY_31ST =
      new BillingSchedule(YearMonth.of(2027, 1), 31, Term.MONTHLY, "Europe/Paris", 3);
  private static final LocalDate JUNE_10 = LocalDate.of(2027, 6, 10);

  private static Money usd(String amount) {
    return Money.parse(amount, "USD");
  }

  private static ReTermedPeriod yearToMonth() {
    return TermChange.now(YEARLY_31ST, 2, usd("99.00"), Term.MONTHLY, usd("9.99"), JUNE_10, true)
        .reTermed(1, JUNE_10);
  }

  @Test
  void aSwitchToAShorterTermCarriesTheNewShareAndPutsTheRestOfTheCreditOnTheBalance() {
    ReTermedPeriod period = yearToMonth();

    // Credit 99.00 x 235/365 = 63.74 pays June's 9.99 x 20/30 = 6.66; 57.08 is left over.
    assertThat(period)
        .isEqualTo(
            new ReTermedPeriod(1, JUNE_10, LocalDate.of(2027, 6, 30), usd("6.66"), usd("57.08")));
  }

  @Test
  void aSwitchToALongerTermCarriesTheWholeCreditAndLeavesNoExcess() {
    LocalDate feb10 = LocalDate.of(2027, 2, 10);
    ReTermedPeriod period =
        TermChange.now(MONTHLY_31ST, 2, usd("9.99"), Term.YEARLY, usd("99.00"), feb10, true)
            .reTermed(1, feb10);

    assertThat(period.carried()).isEqualTo(usd("6.42"));
    assertThat(period.excess()).isEqualTo(usd("0.00"));
    assertThat(period.until()).isEqualTo(LocalDate.of(2028, 1, 31));
  }

  @Test
  void nothingPaidRunningIsNoReTermedPeriod() {
    assertThat(
            TermChange.now(YEARLY_31ST, 1, usd("99.00"), Term.MONTHLY, usd("9.99"), JUNE_10, false)
                .reTermed(0, JUNE_10))
        .isNull();
  }

  @Test
  void owedOnTheSwitchDayIsTheNewDaysLessTodayAndTheCreditStillOnTheBalance() {
    ReTermedPeriod period = yearToMonth();

    // 6.66 x 19/20 = 6.327 -> 6.32, plus 57.08.
    assertThat(ReTermedRefund.owed(period, JUNE_10, usd("-57.08"))).isEqualTo(usd("63.40"));
    // A week later: 6.66 x 12/20 = 3.996 -> 3.99.
    assertThat(ReTermedRefund.owed(period, LocalDate.of(2027, 6, 17), usd("-57.08")))
        .isEqualTo(usd("61.07"));
    // The last day: no unused day left, only the credit.
    assertThat(ReTermedRefund.owed(period, LocalDate.of(2027, 6, 29), usd("-57.08")))
        .isEqualTo(usd("57.08"));
  }

  @Test
  void onlyTheSwitchsOwnCreditIsRefundedOfTheBalance() {
    ReTermedPeriod period = yearToMonth();

    // A later downgrade's credit is in the days' share already; an owed amount reduces it.
    assertThat(ReTermedRefund.creditLeft(period, usd("-70.00"))).isEqualTo(usd("57.08"));
    assertThat(ReTermedRefund.creditLeft(period, usd("-20.00"))).isEqualTo(usd("20.00"));
    assertThat(ReTermedRefund.creditLeft(period, usd("5.00"))).isEqualTo(usd("0.00"));
    assertThat(ReTermedRefund.creditLeft(period, null)).isEqualTo(usd("0.00"));
  }

  @Test
  void theOwedAmountIsTakenFromTheChargesInOrderEachUpToWhatItHasLeft() {
    List<ReTermedRefund.Part> parts =
        ReTermedRefund.split(
            usd("10.00"),
            List.of(
                new ReTermedRefund.Source("txn_own", usd("4.00"), true),
                new ReTermedRefund.Source("txn_none", usd("0.00"), false),
                new ReTermedRefund.Source("txn_up", usd("8.00"), false),
                new ReTermedRefund.Source("txn_late", usd("8.00"), false)));

    assertThat(parts)
        .containsExactly(
            new ReTermedRefund.Part("txn_own", usd("4.00"), true),
            new ReTermedRefund.Part("txn_up", usd("6.00"), false));
  }

  @Test
  void anUpgradeBeforeTheSwitchIsConsumedAndOneAfterItIsNot() {
    ReTermedPeriod period = yearToMonth();
    PaidUpgradeCharge before =
        new PaidUpgradeCharge(
            1, "k1", "txn_1", usd("5.00"), LocalDate.of(2027, 3, 1), LocalDate.of(2028, 1, 31));
    PaidUpgradeCharge sameDayOldTerm =
        new PaidUpgradeCharge(1, "k2", "txn_2", usd("5.00"), JUNE_10, LocalDate.of(2028, 1, 31));
    PaidUpgradeCharge after =
        new PaidUpgradeCharge(1, "k3", "txn_3", usd("1.00"), JUNE_10, LocalDate.of(2027, 6, 30));
    PaidUpgradeCharge otherCycle =
        new PaidUpgradeCharge(2, "k4", "txn_4", usd("1.00"), JUNE_10, LocalDate.of(2028, 1, 31));

    assertThat(period.consumed(before)).isTrue();
    assertThat(period.consumed(sameDayOldTerm)).isTrue();
    assertThat(period.consumed(after)).isFalse();
    assertThat(period.consumed(otherCycle)).isFalse();
  }
}
