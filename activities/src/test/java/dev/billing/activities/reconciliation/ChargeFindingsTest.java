package dev.billing.activities.reconciliation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.activities.ledger.LedgerViolation;
import dev.billing.activities.ledger.LedgerViolation.Kind;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayChargeState.Status;
import dev.billing.activities.reconciliation.ChargeFindings.Response;
import dev.billing.domain.BillingIds;
import dev.billing.domain.Money;
import dev.billing.domain.PendingUpgradeCharge;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Receipt;
import dev.billing.domain.Subscription;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a gateway charge against the records means, without a server. */
class ChargeFindingsTest {
  private static final String SUB = "sub-1";
  private static final Money PRICE = new Money(999, "USD");
  private static final Instant CREATED = Instant.parse("2026-03-10T12:00:00Z");
  private static final String UPGRADE_KEY = BillingIds.changeChargeKey(SUB, "req-upgrade");

  @Test
  void aPlanChangesChargeWithoutItsReceiptIsAdvisedOnAndAPeriodsChargeIsRecorded() {
    LedgerViolation unrecorded = violation(Kind.UNRECORDED_CHARGE, "ch_1");

    assertThat(ChargeFindings.response(unrecorded, charge(UPGRADE_KEY, Status.SUCCEEDED), null, 1))
        .isEqualTo(Response.ADVISE_ON_CHANGE_CHARGE);
    assertThat(
            ChargeFindings.response(
                unrecorded, charge(BillingIds.chargeKey(SUB, 1, 1), Status.SUCCEEDED), null, 1))
        .isEqualTo(Response.RECORD_CHARGE);
  }

  @Test
  void onlyThePeriodsOwnChargeComingBackIsSentToTheWorkflow() {
    LedgerViolation unsettled = violation(Kind.COLLECTION_NOT_SETTLED, "ch_1");
    String key = BillingIds.chargeKey(SUB, 1, 1);

    assertThat(ChargeFindings.response(unsettled, charge(key, Status.RETURNED), period("ch_1"), 1))
        .isEqualTo(Response.RECORD_RETURN);
    assertThat(ChargeFindings.response(unsettled, charge(key, Status.FAILED), period("ch_1"), 1))
        .isEqualTo(Response.RECORD_RETURN);
    assertThat(ChargeFindings.response(unsettled, charge(key, Status.PENDING), period("ch_1"), 1))
        .as("a pending debit may still settle")
        .isEqualTo(Response.REPORT);
    assertThat(ChargeFindings.response(unsettled, charge(key, Status.RETURNED), period("ch_2"), 1))
        .as("not the period's own charge")
        .isEqualTo(Response.REPORT);
    assertThat(ChargeFindings.response(unsettled, charge(key, Status.RETURNED), null, 1))
        .isEqualTo(Response.REPORT);
  }

  @Test
  void theNetDifferenceIsReportedOnlyWhenNoOtherViolationNamesItsParts() {
    LedgerViolation net = new LedgerViolation(Kind.NET_MISMATCH, null, null, "net differs");

    assertThat(ChargeFindings.response(net, null, null, 1)).isEqualTo(Response.REPORT);
    assertThat(ChargeFindings.response(net, null, null, 2)).isEqualTo(Response.NONE);
  }

  @Test
  void theOtherViolationsAreRepairedOrReportedByKind() {
    GatewayChargeState charge = charge(BillingIds.chargeKey(SUB, 1, 2), Status.SUCCEEDED);

    assertThat(ChargeFindings.response(violation(Kind.DOUBLE_CHARGE, "ch_1"), charge, null, 1))
        .isEqualTo(Response.ADVISE_REFUND_OF_SECOND_CHARGE);
    assertThat(ChargeFindings.response(violation(Kind.RECEIPT_MISSING, "ch_1"), charge, null, 1))
        .isEqualTo(Response.RESTORE_RECEIPT);
    assertThat(ChargeFindings.response(violation(Kind.REFUND_MISMATCH, "ch_1"), charge, null, 1))
        .isEqualTo(Response.RECORD_REFUND);
    for (Kind kind :
        new Kind[] {
          Kind.CHARGE_RECORDED_TWICE,
          Kind.PERIOD_WITHOUT_CHARGE,
          Kind.COLLECTION_WITHOUT_CHARGE,
          Kind.AMOUNT_MISMATCH
        }) {
      assertThat(ChargeFindings.response(violation(kind, "ch_1"), charge, null, 1))
          .as(kind.name())
          .isEqualTo(Response.REPORT);
    }
  }

  @Test
  void aChargeIsPendingOnlyWhileTheRecordNamesItsKeyAsTheUpgradesCharge() {
    GatewayChargeState charge = charge(UPGRADE_KEY, Status.SUCCEEDED);

    assertThat(ChargeFindings.upgradeChargePending(Optional.of(waitingFor(UPGRADE_KEY)), charge))
        .isTrue();
    assertThat(
            ChargeFindings.upgradeChargePending(
                Optional.of(waitingFor(BillingIds.changeChargeKey(SUB, "req-other"))), charge))
        .as("another upgrade's key")
        .isFalse();
    assertThat(
            ChargeFindings.upgradeChargePending(
                Optional.of(ReconciliationFixture.requested("acc-1", SUB)), charge))
        .as("no upgrade pending")
        .isFalse();
    assertThat(ChargeFindings.upgradeChargePending(Optional.empty(), charge))
        .as("no record")
        .isFalse();
  }

  @Test
  void aPendingUpgradesChargeIsNeverAdvisedForARefundAndALostOneIs() {
    assertThat(ChargeFindings.changeChargeAdvice(true))
        .contains("still waits for this charge's outcome")
        .endsWith("do not refund it by hand")
        .doesNotContain("refund this charge");
    assertThat(ChargeFindings.changeChargeAdvice(false))
        .contains("the plan change that made it was not recorded")
        .endsWith("refund this charge")
        .doesNotContain("do not refund");
  }

  @Test
  void aReportedViolationSaysWhatToCompareOrSettle() {
    assertThat(ChargeFindings.mismatch(violation(Kind.COLLECTION_NOT_SETTLED, "ch_1")))
        .isEqualTo(
            "COLLECTION_NOT_SETTLED ch_1; the workflow is not told (it is not a period's own"
                + " charge): settle the difference with the customer");
    assertThat(ChargeFindings.mismatch(violation(Kind.AMOUNT_MISMATCH, "ch_1")))
        .isEqualTo(
            "AMOUNT_MISMATCH ch_1; nothing changed: compare the subscription's history with the"
                + " gateway's charge");
    assertThat(
            ChargeFindings.secondCharge(
                violation(Kind.DOUBLE_CHARGE, "ch_1"),
                charge(BillingIds.chargeKey(SUB, 1, 2), Status.SUCCEEDED)))
        .isEqualTo("DOUBLE_CHARGE ch_1; refund this charge (ch_1), not the one the period records");
  }

  @Test
  void aReceiptWrittenFromAChargeIsDatedWhenTheMoneyArrived() {
    Subscription record = ReconciliationFixture.requested("acc-1", SUB);
    GatewayChargeState card = charge(BillingIds.chargeKey(SUB, 1, 1), Status.SUCCEEDED);
    Instant settled = CREATED.plusSeconds(3 * 86_400);
    GatewayChargeState debit =
        new GatewayChargeState(
            Status.SUCCEEDED,
            BillingIds.chargeKey(SUB, 1, 1),
            "ch_1",
            PRICE,
            Money.zero("USD"),
            SUB,
            1L,
            CREATED,
            settled,
            null,
            null,
            null);

    Receipt receipt = ChargeFindings.receipt(record, debit, new Money(500, "USD"));

    assertThat(receipt.processedAt()).isEqualTo(settled);
    assertThat(receipt.amount()).isEqualTo(new Money(500, "USD"));
    assertThat(receipt.cycle()).isEqualTo(1);
    assertThat(receipt.transactionId()).isEqualTo("ch_1");
    assertThat(receipt.paymentMask()).isEqualTo(record.paymentMethod().mask());
    assertThat(ChargeFindings.processedAt(card)).isEqualTo(CREATED);
  }

  private static LedgerViolation violation(Kind kind, String transactionId) {
    return new LedgerViolation(kind, 1L, transactionId, kind.name() + " " + transactionId);
  }

  private static GatewayChargeState charge(String key, Status status) {
    return new GatewayChargeState(
        status, key, "ch_1", PRICE, Money.zero("USD"), SUB, 1L, CREATED, null, null, null, null);
  }

  private static Period period(String transactionId) {
    return new Period(
        "acc-1",
        SUB,
        1,
        LocalDate.of(2026, 3, 2),
        PRICE,
        PeriodStatus.COMPLETED,
        1,
        transactionId,
        null,
        null,
        CREATED,
        Money.zero("USD"));
  }

  /** A record whose immediate upgrade's charge, with {@code key}, has no known outcome yet. */
  private static Subscription waitingFor(String key) {
    Subscription record = ReconciliationFixture.requested("acc-1", SUB);
    return record.withLifecycle(
        record
            .lifecycle()
            .withUpgradeCharge(
                new PendingUpgradeCharge(
                    "req-upgrade",
                    key,
                    "pro-plus",
                    new Money(1999, "USD"),
                    new Money(645, "USD"),
                    1,
                    record.paymentMethod(),
                    CREATED)));
  }
}
