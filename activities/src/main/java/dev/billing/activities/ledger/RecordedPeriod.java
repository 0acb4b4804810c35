package dev.billing.activities.ledger;

import dev.billing.domain.Money;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodRefund;
import dev.billing.domain.PeriodStatus;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One period as the records hold it. A manual repayment needs no shape of its own: it collects its
 * period with a period charge key, so it is recorded (and given here) as that period's collection.
 *
 * @param transactionId the charge that collected it; null when none (not collected, or paid by
 *     credit)
 * @param refunded what the records say was refunded of it; null when nothing
 * @param otherRefunds what the records say was refunded, within this period, of charges other than
 *     its own (an upgrade's prorated charge refunded at cancellation), by transaction; made refunds
 *     only
 */
public record RecordedPeriod(
    long cycle,
    PeriodStatus status,
    Money amount,
    String transactionId,
    Money refunded,
    Map<String, Money> otherRefunds) {

  public RecordedPeriod {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(amount, "amount");
    otherRefunds = otherRefunds == null ? Map.of() : Map.copyOf(otherRefunds);
  }

  public RecordedPeriod(
      long cycle, PeriodStatus status, Money amount, String transactionId, Money refunded) {
    this(cycle, status, amount, transactionId, refunded, null);
  }

  public static RecordedPeriod of(Period period) {
    Map<String, Money> others = new TreeMap<>();
    for (PeriodRefund refund : period.refunds()) {
      if (refund.made() && !refund.transactionId().equals(period.transactionId())) {
        others.merge(refund.transactionId(), refund.amount(), Money::plus);
      }
    }
    return new RecordedPeriod(
        period.cycle(),
        period.status(),
        period.amount(),
        period.transactionId(),
        period.refunded(),
        others);
  }

  /**
   * COMPLETED or REFUNDED, or DISPUTED (the gateway holds the charge as succeeded until the dispute
   * is lost): the records say money was collected for it.
   */
  boolean collected() {
    return status == PeriodStatus.COMPLETED
        || status == PeriodStatus.REFUNDED
        || status == PeriodStatus.DISPUTED;
  }

  /**
   * Collected with nothing charged: the credit balance covered it (amount zero, no transaction).
   */
  boolean paidByCredit() {
    return collected() && transactionId == null && amount.minor() == 0;
  }

  Money refundedOrZero() {
    return refunded == null ? Money.zero(amount.currency()) : refunded;
  }
}
