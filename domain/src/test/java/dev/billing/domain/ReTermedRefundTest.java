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
    return ReTermedPeriod.of(
        TermChange.now(YEARLY_31ST, 2, usd("99.00"), Term.MONTHLY, usd("9.99"), JUNE_10, true),
        1,
        JUNE_10,
        List.of(),
        null,
        null,
        Money.zero("USD"));
  }

  @Test
  void aSwitchToAShorterTermCarriesTheNewShareAndPutsTheRestOfTheCreditOnTheBalance() {
    ReTermedPeriod period = yearToMonth();

    // Credit 99.00 x 235/365 = 63.74 pays June's 9.99 x 20/30 = 6.66; 57.08 is left over.
    assertThat(period)
        .isEqualTo(
            new ReTermedPeriod(
                1, JUNE_10, LocalDate.of(2027, 6, 30), usd("6.66"), usd("57.08"), List.of()));
  }

  @Test
  void aSwitchToALongerTermCarriesTheWholeCreditAndLeavesNoExcess() {
    LocalDate feb10 = LocalDate.of(2027, 2, 10);
    ReTermedPeriod period =
        ReTermedPeriod.of(
            TermChange.now(MONTHLY_31ST, 2, usd("9.99"), Term.YEARLY, usd("99.00"), feb10, true),
            1,
            feb10,
            List.of(),
            null,
            null,
            Money.zero("USD"));

    assertThat(period.carried()).isEqualTo(usd("6.42"));
    assertThat(period.excess()).isEqualTo(usd("0.00"));
    assertThat(period.until()).isEqualTo(LocalDate.of(2028, 1, 31));
  }

  @Test
  void nothingPaidRunningIsNoReTermedPeriod() {
    assertThat(
            ReTermedPeriod.of(
                TermChange.now(
                    YEARLY_31ST, 1, usd("99.00"), Term.MONTHLY, usd("9.99"), JUNE_10, false),
                0,
                JUNE_10,
                List.of(),
                null,
                null,
                Money.zero("USD")))
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
  void theOwedAmountIsTakenFromEachChargeByItsPartInTheCreditNeverFromAnotherOne() {
    // 10.00 owed; the own charge put 30.00 into the credit, an upgrade 10.00: 7.50 and 2.50.
    assertThat(
            ReTermedRefund.split(
                usd("10.00"),
                List.of(
                    new ReTermedRefund.Source("txn_own", usd("99.00"), true, usd("30.00")),
                    new ReTermedRefund.Source("txn_up", usd("8.00"), false, usd("10.00")))))
        .containsExactly(
            new ReTermedRefund.Part("txn_own", usd("7.50"), true),
            new ReTermedRefund.Part("txn_up", usd("2.50"), false));
    // The own charge refunded by hand before: its part is not made up from the upgrade's.
    assertThat(
            ReTermedRefund.split(
                usd("10.00"),
                List.of(
                    new ReTermedRefund.Source("txn_own", usd("1.00"), true, usd("30.00")),
                    new ReTermedRefund.Source("txn_up", usd("8.00"), false, usd("10.00")))))
        .containsExactly(
            new ReTermedRefund.Part("txn_own", usd("1.00"), true),
            new ReTermedRefund.Part("txn_up", usd("2.50"), false));
    // Cents the rounding leaves go to the first charge with room: 3.33 + 3.33 + 0.01.
    assertThat(
            ReTermedRefund.split(
                usd("6.67"),
                List.of(
                    new ReTermedRefund.Source("txn_own", usd("99.00"), true, usd("1.00")),
                    new ReTermedRefund.Source("txn_up", usd("8.00"), false, usd("1.00")))))
        .containsExactly(
            new ReTermedRefund.Part("txn_own", usd("3.34"), true),
            new ReTermedRefund.Part("txn_up", usd("3.33"), false));
    // A period the credit paid has no charge of its own to refund.
    assertThat(
            ReTermedRefund.split(
                usd("5.00"),
                List.of(
                    new ReTermedRefund.Source(null, usd("0.00"), true, usd("5.00")),
                    new ReTermedRefund.Source("txn_up", usd("8.00"), false, usd("5.00")))))
        .containsExactly(new ReTermedRefund.Part("txn_up", usd("2.50"), false));
  }

  @Test
  void theUpgradesChargedBeforeTheSwitchAreConsumedWithTheirUnusedShare() {
    PaidUpgradeCharge march =
        new PaidUpgradeCharge(
            1, "k1", "txn_1", usd("92.05"), LocalDate.of(2027, 3, 1), LocalDate.of(2028, 1, 31));
    PaidUpgradeCharge lastCycle =
        new PaidUpgradeCharge(
            0, "k0", "txn_0", usd("1.00"), LocalDate.of(2026, 3, 1), LocalDate.of(2027, 1, 31));
    ReTermedPeriod period =
        ReTermedPeriod.of(
            TermChange.now(
                YEARLY_31ST, 2, usd("199.00"), Term.MONTHLY, usd("19.99"), JUNE_10, true),
            1,
            JUNE_10,
            List.of(march, lastCycle),
            null,
            null,
            Money.zero("USD"));

    // 92.05 x 235/336 = 64.38 of the upgrade is in the credit of 199.00 x 235/365 = 128.12.
    assertThat(period.consumed())
        .containsExactly(new ReTermedPeriod.Share("k1", "txn_1", usd("64.38")));
    assertThat(period.consumed(march)).isTrue();
    assertThat(period.consumed(lastCycle)).isFalse();
    assertThat(period.ownShare()).isEqualTo(usd("63.74"));
  }

  @Test
  void aSecondSwitchOfThePeriodKeepsTheFirstOnesCreditOwedBack() {
    ReTermedPeriod first = yearToMonth();
    LocalDate june10 = JUNE_10;
    BillingSchedule monthly =
        TermChange.now(YEARLY_31ST, 2, usd("99.00"), Term.MONTHLY, usd("9.99"), june10, true)
            .schedule();
    ReTermedPeriod second =
        ReTermedPeriod.of(
            TermChange.now(monthly, 2, usd("9.99"), Term.YEARLY, usd("99.00"), june10, true),
            1,
            june10,
            List.of(),
            first,
            usd("-57.08"),
            Money.zero("USD"));

    // Its own credit (June's 6.66) all goes into the new year; the first switch's 57.08 stays.
    assertThat(second.carried()).isEqualTo(usd("6.66"));
    assertThat(second.excess()).isEqualTo(usd("57.08"));
  }
}
