package dev.billing.bench.crash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.activities.ledger.GatewayCoverage;
import dev.billing.activities.ledger.Ledger;
import dev.billing.activities.ledger.LedgerInput;
import dev.billing.activities.ledger.LedgerViolation.Kind;
import dev.billing.activities.ledger.RecordedPeriod;
import dev.billing.activities.ledger.RecordedReceipt;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.domain.Money;
import dev.billing.domain.PeriodStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How the audit counts what the ledger finds. */
class LedgerAuditTest {
  private static final Money PRICE = new Money(999, "USD");
  private static final Instant AT = Instant.parse("2026-03-02T00:00:01Z");

  @Test
  void balancedBooksCountPeriodsAndNoViolation() {
    var tally =
        LedgerAudit.tally(
            List.of(
                audited("sub_1", List.of(charge("sub_1", "t1", 1)), PeriodStatus.COMPLETED, "t1"),
                audited("sub_2", List.of(), PeriodStatus.ERROR, null)),
            List.of(),
            1);

    assertThat(tally.clean()).isTrue();
    assertThat(
            List.of(
                tally.subscriptions(),
                tally.periods(),
                tally.collected(),
                tally.unpaid(),
                tally.succeededCharges()))
        .containsExactly(2, 2, 1, 1, 1);
  }

  @Test
  void aSecondChargeIsOneDoubleChargeAndItsTotalsMismatchIsNotCountedAgain() {
    var tally =
        LedgerAudit.tally(
            List.of(
                audited(
                    "sub_1",
                    List.of(charge("sub_1", "t1", 1), charge("sub_1", "t1b", 2)),
                    PeriodStatus.COMPLETED,
                    "t1")),
            List.of(),
            2);

    assertThat(List.of(tally.doubleCharges(), tally.lostCharges(), tally.otherViolations()))
        .containsExactly(1, 0, 0);
    assertThat(tally.byKind()).isEqualTo(Map.of(Kind.DOUBLE_CHARGE, 1, Kind.NET_MISMATCH, 1));
    assertThat(tally.violations()).first().asString().startsWith("sub_1: DOUBLE_CHARGE charge t1b");
    assertThat(tally.clean()).isFalse();
  }

  @Test
  void anUnrecordedChargeARecordWithoutChargeAndAStrangersChargeAreLost() {
    var tally =
        LedgerAudit.tally(
            List.of(
                audited("sub_1", List.of(charge("sub_1", "t1", 1)), PeriodStatus.ERROR, null),
                audited("sub_2", List.of(), PeriodStatus.COMPLETED, "t-ghost")),
            List.of(charge("sub_x", "t9", 1)),
            2);

    assertThat(List.of(tally.doubleCharges(), tally.lostCharges(), tally.otherViolations()))
        .containsExactly(0, 3, 0);
    assertThat(tally.violations())
        .anySatisfy(line -> assertThat(line).contains("sub_x", "never created"));
  }

  @Test
  void aReceiptMissingIsAnotherViolation() {
    GatewayChargeState charge = charge("sub_1", "t1", 1);
    var report =
        Ledger.check(
            new LedgerInput(
                "sub_1",
                List.of(charge),
                List.of(new RecordedPeriod(1, PeriodStatus.COMPLETED, PRICE, "t1", null)),
                List.of(),
                GatewayCoverage.complete()));
    var tally =
        LedgerAudit.tally(
            List.of(new LedgerAudit.Audited(report, List.of(PeriodStatus.COMPLETED))),
            List.of(),
            1);

    assertThat(List.of(tally.doubleCharges(), tally.lostCharges(), tally.otherViolations()))
        .containsExactly(0, 0, 1);
  }

  private static LedgerAudit.Audited audited(
      String sub, List<GatewayChargeState> charges, PeriodStatus status, String txn) {
    var report =
        Ledger.check(
            new LedgerInput(
                sub,
                charges,
                List.of(new RecordedPeriod(1, status, PRICE, txn, null)),
                txn == null ? List.of() : List.of(new RecordedReceipt(1, PRICE, txn)),
                GatewayCoverage.complete()));
    return new LedgerAudit.Audited(report, List.of(status));
  }

  private static GatewayChargeState charge(String sub, String txn, int attempt) {
    return new GatewayChargeState(
        GatewayChargeState.Status.SUCCEEDED,
        "charge:" + sub + ":1:" + attempt,
        txn,
        PRICE,
        new Money(0, "USD"),
        sub,
        1L,
        AT,
        AT,
        null,
        null,
        null);
  }
}
