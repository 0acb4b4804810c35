package dev.billing.activities.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.billing.activities.ledger.LedgerViolation.Kind;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayChargeState.Status;
import dev.billing.domain.BillingIds;
import dev.billing.domain.ChargeRefund;
import dev.billing.domain.GatewayRefunds;
import dev.billing.domain.Money;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodRefund;
import dev.billing.domain.PeriodStatus;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The ledger invariant on hand-made books, with exact amounts. */
class LedgerTest {
  private static final String SUB = "sub-1";
  private static final Money PRICE = usd(999);
  private static final Instant AT = Instant.parse("2026-03-02T00:01:00Z");

  @Test
  void balancedBooksWithARefundAnUpgradeAndACreditPaidPeriodHaveNoViolation() {
    LedgerReport report =
        Ledger.check(
            complete(
                List.of(
                    charge("t1", periodKey(1, 1), PRICE, usd(0), 1),
                    charge("t2", periodKey(2, 1), PRICE, usd(300), 2),
                    charge(
                        "t-up",
                        BillingIds.changeChargeKey(SUB, "req_upgrade_7"),
                        usd(450),
                        usd(0),
                        2)),
                List.of(
                    period(1, PeriodStatus.COMPLETED, PRICE, "t1", null),
                    period(2, PeriodStatus.REFUNDED, PRICE, "t2", usd(300)),
                    period(3, PeriodStatus.COMPLETED, usd(0), null, null),
                    period(4, PeriodStatus.SCHEDULED, PRICE, null, null)),
                List.of(
                    receipt(1, PRICE, "t1"),
                    receipt(2, PRICE, "t2"),
                    receipt(2, usd(450), "t-up"))));

    assertThat(report.violations()).isEmpty();
    assertThat(report.gatewayNet()).isEqualTo(Map.of("USD", usd(2148)));
    assertThat(report.recordedNet()).isEqualTo(Map.of("USD", usd(2148)));
  }

  @Test
  void aSecondSuccessfulChargeForACollectedPeriodIsADoubleCharge() {
    LedgerReport report =
        Ledger.check(
            complete(
                List.of(
                    charge("t1", periodKey(1, 1), PRICE, usd(0), 1),
                    charge("t1b", periodKey(1, 2), PRICE, usd(0), 1)),
                List.of(period(1, PeriodStatus.COMPLETED, PRICE, "t1", null)),
                List.of(receipt(1, PRICE, "t1"))));

    assertThat(report.violations())
        .extracting(
            LedgerViolation::kind,
            LedgerViolation::cycle,
            LedgerViolation::transactionId,
            LedgerViolation::detail)
        .containsExactly(
            tuple(
                Kind.DOUBLE_CHARGE,
                1L,
                "t1b",
                "charge t1b (9.99 USD, key charge:sub-1:1:2) succeeded"
                    + " for cycle 1, which is COMPLETED with t1: a second charge for one period"),
            tuple(
                Kind.NET_MISMATCH,
                null,
                null,
                "the gateway holds 19.98 USD net of refunds, the records 9.99 USD: 9.99 USD apart"));
  }

  @Test
  void aSuccessfulChargeOfAnOpenPeriodIsUnrecordedAndSoIsAnUpgradeChargeWithoutItsReceipt() {
    LedgerReport report =
        Ledger.check(
            complete(
                List.of(
                    charge("t2", periodKey(2, 1), PRICE, usd(0), 2),
                    charge(
                        "t-up",
                        BillingIds.changeChargeKey(SUB, "req_upgrade_4"),
                        usd(120),
                        usd(0),
                        1)),
                List.of(period(2, PeriodStatus.PENDING_SETTLEMENT, PRICE, "t2", null)),
                List.of()));

    assertThat(report.violations())
        .extracting(LedgerViolation::kind, LedgerViolation::detail)
        .containsExactly(
            tuple(
                Kind.UNRECORDED_CHARGE,
                "charge t2 (9.99 USD, key charge:sub-1:2:1) succeeded for cycle 2,"
                    + " which is PENDING_SETTLEMENT: no record claims it"),
            tuple(
                Kind.UNRECORDED_CHARGE,
                "charge t-up (1.20 USD, key "
                    + BillingIds.changeChargeKey(SUB, "req_upgrade_4")
                    + ") succeeded for cycle 1"
                    + " as a plan change's charge, but no plan change receipt records it"),
            tuple(
                Kind.NET_MISMATCH,
                "the gateway holds 11.19 USD net of refunds, the records 0.00 USD: 11.19 USD apart"));
  }

  @Test
  void aCollectionTheGatewayDoesNotHaveAndACollectedPeriodWithoutChargeAreReported() {
    LedgerReport report =
        Ledger.check(
            complete(
                List.of(),
                List.of(
                    period(1, PeriodStatus.COMPLETED, PRICE, "t-ghost", null),
                    period(2, PeriodStatus.COMPLETED, PRICE, null, null)),
                List.of(receipt(1, PRICE, "t-ghost"), receipt(3, usd(450), "t-phantom"))));

    assertThat(report.violations())
        .extracting(LedgerViolation::kind, LedgerViolation::detail)
        .containsExactly(
            tuple(
                Kind.PERIOD_WITHOUT_CHARGE,
                "period 2 is COMPLETED for 9.99 USD with no transaction: only a"
                    + " period paid by credit (0.00) has none"),
            tuple(
                Kind.COLLECTION_WITHOUT_CHARGE,
                "period 1 records 9.99 USD collected with t-ghost, which the"
                    + " gateway does not have: money recorded but never collected"),
            tuple(
                Kind.COLLECTION_WITHOUT_CHARGE,
                "a receipt of cycle 3 records 4.50 USD collected with"
                    + " t-phantom, which the gateway does not have: money recorded but never collected"),
            tuple(
                Kind.NET_MISMATCH,
                "the gateway holds 0.00 USD net of refunds, the records 14.49 USD: -14.49 USD apart"));
  }

  @Test
  void aReturnedChargeStillRecordedIsNotSettledButAReceiptOfOneThatWasCollectedAgainIsHistory() {
    GatewayChargeState returned =
        new GatewayChargeState(
            Status.RETURNED,
            periodKey(1, 1),
            "t1",
            PRICE,
            usd(0),
            SUB,
            1L,
            AT,
            AT,
            AT.plusSeconds(86400 * 3),
            "R01",
            "insufficient funds");
    LedgerReport stillRecorded =
        Ledger.check(
            complete(
                List.of(returned),
                List.of(period(1, PeriodStatus.COMPLETED, PRICE, "t1", null)),
                List.of(receipt(1, PRICE, "t1"))));
    assertThat(stillRecorded.violations())
        .extracting(LedgerViolation::kind, LedgerViolation::detail)
        .containsExactly(
            tuple(
                Kind.COLLECTION_NOT_SETTLED,
                "period 1 records 9.99 USD collected with t1, which the gateway"
                    + " holds as RETURNED (R01)"),
            tuple(
                Kind.NET_MISMATCH,
                "the gateway holds 0.00 USD net of refunds, the records 9.99 USD: -9.99 USD apart"));

    LedgerReport collectedAgain =
        Ledger.check(
            complete(
                List.of(returned, charge("t1r", periodKey(1, 2), PRICE, usd(0), 1)),
                List.of(period(1, PeriodStatus.COMPLETED, PRICE, "t1r", null)),
                List.of(receipt(1, PRICE, "t1"), receipt(1, PRICE, "t1r"))));
    assertThat(collectedAgain.violations()).isEmpty();
    assertThat(collectedAgain.gatewayNet()).isEqualTo(Map.of("USD", PRICE));
  }

  @Test
  void refundsAndAmountsAreComparedChargeByCharge() {
    LedgerReport report =
        Ledger.check(
            complete(
                List.of(
                    charge("t1", periodKey(1, 1), PRICE, usd(200), 1),
                    charge("t2", periodKey(2, 1), usd(1099), usd(0), 2)),
                List.of(
                    period(1, PeriodStatus.COMPLETED, PRICE, "t1", null),
                    period(2, PeriodStatus.COMPLETED, PRICE, "t2", null)),
                List.of(receipt(1, PRICE, "t1"))));

    assertThat(report.violations())
        .extracting(LedgerViolation::kind, LedgerViolation::detail)
        .containsExactly(
            tuple(
                Kind.REFUND_MISMATCH,
                "the gateway refunded 2.00 USD of t1, period 1 records 0.00 USD refunded"),
            tuple(
                Kind.AMOUNT_MISMATCH,
                "period 2 records 9.99 USD collected with t2, the gateway charged 10.99 USD"),
            tuple(
                Kind.RECEIPT_MISSING,
                "period 2 is collected with t2 (10.99 USD) but has no receipt for it"),
            tuple(
                Kind.NET_MISMATCH,
                "the gateway holds 18.98 USD net of refunds, the records 19.98 USD: -1.00 USD apart"));
  }

  @Test
  void oneChargeRecordedForTwoPeriodsIsCountedOnceAtTheGatewayAndTwiceInTheRecords() {
    LedgerReport report =
        Ledger.check(
            complete(
                List.of(charge("t1", periodKey(1, 1), PRICE, usd(0), 1)),
                List.of(
                    period(1, PeriodStatus.COMPLETED, PRICE, "t1", null),
                    period(2, PeriodStatus.COMPLETED, PRICE, "t1", null)),
                List.of(receipt(1, PRICE, "t1"))));

    assertThat(report.violations())
        .extracting(LedgerViolation::kind, LedgerViolation::detail)
        .containsExactly(
            tuple(
                Kind.CHARGE_RECORDED_TWICE,
                "charge t1 is recorded as the collection of period 1 and period 2:"
                    + " one payment counted 2 times"),
            tuple(
                Kind.NET_MISMATCH,
                "the gateway holds 9.99 USD net of refunds, the records 19.98 USD: -9.99 USD apart"));
  }

  @Test
  void withPartialCoverageOnlyTheTransactionsAskedAboutAreJudged() {
    List<RecordedPeriod> periods =
        List.of(
            period(1, PeriodStatus.COMPLETED, PRICE, "t1", null),
            period(2, PeriodStatus.COMPLETED, PRICE, "t2", null));
    List<GatewayChargeState> today = List.of(charge("t2", periodKey(2, 1), PRICE, usd(0), 2));
    List<RecordedReceipt> receipts = List.of(receipt(2, PRICE, "t2"));

    LedgerReport notAsked =
        Ledger.check(
            new LedgerInput(SUB, today, periods, receipts, GatewayCoverage.partial(Set.of())));
    assertThat(notAsked.violations()).isEmpty();
    assertThat(notAsked.recordedNet()).isEqualTo(Map.of("USD", PRICE));

    LedgerReport asked =
        Ledger.check(
            new LedgerInput(SUB, today, periods, receipts, GatewayCoverage.partial(Set.of("t1"))));
    assertThat(asked.violations())
        .extracting(LedgerViolation::kind, LedgerViolation::transactionId)
        .containsExactly(
            tuple(Kind.COLLECTION_WITHOUT_CHARGE, "t1"), tuple(Kind.NET_MISMATCH, null));
  }

  @Test
  void anUpgradeChargeRefundedAtCancellationBalancesThroughThePeriodThatRecordsItsRefund() {
    String upgrade = BillingIds.changeChargeKey(SUB, "req_upgrade_9");
    List<GatewayChargeState> charges =
        List.of(
            charge("t1", periodKey(1, 1), PRICE, usd(500), 1),
            charge("t-up", upgrade, usd(450), usd(225), 1));
    List<RecordedReceipt> receipts = List.of(receipt(1, PRICE, "t1"), receipt(1, usd(450), "t-up"));
    Period refundedBoth =
        new Period(
            "acc-1",
            SUB,
            1,
            LocalDate.parse("2026-03-02"),
            PRICE,
            PeriodStatus.REFUNDED,
            1,
            "t1",
            null,
            null,
            AT,
            usd(500),
            List.of(
                new PeriodRefund(
                    BillingIds.refundKey(SUB, 1, "cancel-1"),
                    "cancel-1",
                    "t1",
                    usd(500),
                    AT,
                    "re_1"),
                new PeriodRefund(
                    BillingIds.refundKey(SUB, 1, "cancel-1#t-up"),
                    "cancel-1",
                    "t-up",
                    usd(225),
                    AT,
                    "re_2"),
                // Sent without an answer yet: not counted until the gateway says it was made.
                new PeriodRefund(
                    BillingIds.refundKey(SUB, 1, "req_3"), "req_3", "t-up", usd(100), AT, null)));

    LedgerReport report =
        Ledger.check(complete(charges, List.of(RecordedPeriod.of(refundedBoth)), receipts));

    assertThat(report.violations()).isEmpty();
    assertThat(report.recordedNet()).isEqualTo(Map.of("USD", usd(999 - 500 + 450 - 225)));

    LedgerReport notRecorded =
        Ledger.check(
            complete(
                charges,
                List.of(period(1, PeriodStatus.REFUNDED, PRICE, "t1", usd(500))),
                receipts));
    assertThat(notRecorded.violations())
        .extracting(LedgerViolation::kind)
        .containsExactly(Kind.REFUND_MISMATCH, Kind.NET_MISMATCH);
  }

  @Test
  void aReturnedUpgradeChargeWithItsReversedReceiptCollectsNothingAndItsDebtIsTheNextPeriods() {
    String key = BillingIds.changeChargeKey(SUB, "req_upgrade_r");
    GatewayChargeState returned =
        new GatewayChargeState(
            Status.RETURNED,
            key,
            "t-up",
            usd(858),
            null,
            SUB,
            1L,
            AT,
            AT,
            AT,
            "insufficient_funds",
            null);
    List<GatewayChargeState> charges =
        List.of(
            charge("t1", periodKey(1, 1), PRICE, usd(0), 1),
            returned,
            charge("t2", periodKey(2, 1), usd(999 + 858), usd(0), 2));
    List<RecordedPeriod> periods =
        List.of(
            period(1, PeriodStatus.COMPLETED, PRICE, "t1", null),
            period(2, PeriodStatus.COMPLETED, usd(999 + 858), "t2", null));

    LedgerReport unreversed =
        Ledger.check(
            complete(
                charges,
                periods,
                List.of(
                    receipt(1, PRICE, "t1"),
                    receipt(1, usd(858), "t-up"),
                    receipt(2, usd(999 + 858), "t2"))));
    assertThat(unreversed.violations())
        .extracting(LedgerViolation::kind)
        .containsExactly(Kind.COLLECTION_NOT_SETTLED, Kind.NET_MISMATCH);

    LedgerReport reversed =
        Ledger.check(
            complete(
                charges,
                periods,
                List.of(
                    receipt(1, PRICE, "t1"),
                    receipt(1, usd(858), "t-up"),
                    receipt(1, usd(-858), "t-up"),
                    receipt(2, usd(999 + 858), "t2"))));
    assertThat(reversed.violations()).isEmpty();
    assertThat(reversed.recordedNet()).isEqualTo(Map.of("USD", usd(999 + 999 + 858)));

    // Reversed in the records while the gateway still holds the money: a charge no record claims.
    LedgerReport stillHeld =
        Ledger.check(
            complete(
                List.of(
                    charge("t1", periodKey(1, 1), PRICE, usd(0), 1),
                    charge("t-up", key, usd(858), usd(0), 1)),
                List.of(period(1, PeriodStatus.COMPLETED, PRICE, "t1", null)),
                List.of(
                    receipt(1, PRICE, "t1"),
                    receipt(1, usd(858), "t-up"),
                    receipt(1, usd(-858), "t-up"))));
    assertThat(stillHeld.violations())
        .extracting(LedgerViolation::kind)
        .containsExactly(Kind.UNRECORDED_CHARGE, Kind.NET_MISMATCH);
  }

  @Test
  void dashboardRefundsRecordedAsTheGatewayReportsThemAgreeWithItsRefundedTotal() {
    // The gateway holds two dashboard refunds of t1 (3.00, then 2.00) and billing's own of 1.00.
    Money total = usd(600);
    GatewayChargeState atGateway =
        new GatewayChargeState(
            Status.SUCCEEDED,
            periodKey(1, 1),
            "t1",
            PRICE,
            total,
            SUB,
            1L,
            AT,
            AT,
            null,
            null,
            null,
            List.of(
                new ChargeRefund("re_d1", usd(300), null, AT),
                new ChargeRefund("re_own", usd(100), "refund:sub-1:1:req:abc", AT),
                new ChargeRefund("re_d2", usd(200), null, AT)));
    PeriodRefund own =
        new PeriodRefund("refund:sub-1:1:req:abc", "req", "t1", usd(100), AT, "re_own");
    Period recorded =
        new Period(
            "acc",
            SUB,
            1,
            LocalDate.of(2026, 3, 1),
            PRICE,
            PeriodStatus.REFUNDED,
            1,
            "t1",
            null,
            null,
            AT,
            usd(100),
            List.of(own));
    assertThat(books(atGateway, recorded).violations())
        .extracting(LedgerViolation::kind)
        .contains(Kind.REFUND_MISMATCH);

    // What the webhook reports, then again as reconciliation reads it (the total alone).
    Period afterWebhook = withAdded(recorded, atGateway.refunds(), total);
    Period afterReplay = withAdded(afterWebhook, List.of(), total);

    assertThat(afterReplay.refunded()).isEqualTo(total);
    assertThat(afterReplay.refunds())
        .extracting(PeriodRefund::refundId)
        .containsExactlyInAnyOrder("re_own", "re_d1", "re_d2");
    LedgerReport report = books(atGateway, afterReplay);
    assertThat(report.violations()).isEmpty();
    assertThat(report.recordedNet()).isEqualTo(report.gatewayNet());
  }

  @Test
  void aDisputedPeriodIsCollectedUntilItsDisputeIsLost() {
    GatewayChargeState held =
        charge("t1", periodKey(1, 1), PRICE, usd(0), 1); // Stripe keeps the charge succeeded
    assertThat(
            Ledger.check(
                    complete(
                        List.of(held),
                        List.of(period(1, PeriodStatus.DISPUTED, PRICE, "t1", null)),
                        List.of(receipt(1, PRICE, "t1"))))
                .violations())
        .isEmpty();
  }

  /** The period as the workflow records what the gateway reported: GatewayRefunds' additions. */
  private static Period withAdded(Period period, List<ChargeRefund> listed, Money total) {
    Period next = period;
    Money refunded = period.refunded();
    for (PeriodRefund refund : GatewayRefunds.unrecorded(period, "t1", total, listed, AT)) {
      next = next.withRefund(refund);
      refunded = refunded.plus(refund.amount());
    }
    return new Period(
        next.accountId(),
        SUB,
        1,
        next.dueDate(),
        PRICE,
        PeriodStatus.REFUNDED,
        1,
        "t1",
        null,
        null,
        AT,
        refunded,
        next.refunds());
  }

  private static LedgerReport books(GatewayChargeState charge, Period period) {
    return Ledger.check(
        complete(
            List.of(charge), List.of(RecordedPeriod.of(period)), List.of(receipt(1, PRICE, "t1"))));
  }

  private static LedgerInput complete(
      List<GatewayChargeState> charges,
      List<RecordedPeriod> periods,
      List<RecordedReceipt> receipts) {
    return new LedgerInput(SUB, charges, periods, receipts, GatewayCoverage.complete());
  }

  private static GatewayChargeState charge(
      String txn, String key, Money amount, Money refunded, long cycle) {
    return new GatewayChargeState(
        Status.SUCCEEDED, key, txn, amount, refunded, SUB, cycle, AT, AT, null, null, null);
  }

  private static RecordedPeriod period(
      long cycle, PeriodStatus status, Money amount, String txn, Money refunded) {
    return new RecordedPeriod(cycle, status, amount, txn, refunded);
  }

  private static RecordedReceipt receipt(long cycle, Money amount, String txn) {
    return new RecordedReceipt(cycle, amount, txn);
  }

  private static String periodKey(long cycle, int attempt) {
    return BillingIds.chargeKey(SUB, cycle, attempt);
  }

  private static Money usd(long minor) {
    return new Money(minor, "USD");
  }
}
