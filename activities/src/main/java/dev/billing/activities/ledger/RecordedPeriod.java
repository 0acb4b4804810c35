package dev.billing.activities.ledger;

import dev.billing.domain.Money;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import java.util.Objects;

/**
 * One period as the records hold it. A manual repayment needs no shape of its own: it collects its
 * period with a period charge key, so it is recorded (and given here) as that period's collection.
 *
 * @param transactionId the charge that collected it; null when none (not collected, or paid by credit)
 * @param refunded what the records say was refunded of it; null when nothing
 */
public record RecordedPeriod(long cycle, PeriodStatus status, Money amount, String transactionId,
    Money refunded) {

  public RecordedPeriod {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(amount, "amount");
  }

  public static RecordedPeriod of(Period period) {
    return new RecordedPeriod(period.cycle(), period.status(), period.amount(), period.transactionId(),
        period.refunded());
  }

  /** COMPLETED or REFUNDED: the records say money was collected for it. */
  boolean collected() {
    return status == PeriodStatus.COMPLETED || status == PeriodStatus.REFUNDED;
  }

  /** Collected with nothing charged: the credit balance covered it (amount zero, no transaction). */
  boolean paidByCredit() {
    return collected() && transactionId == null && amount.minor() == 0;
  }

  Money refundedOrZero() {
    return refunded == null ? Money.zero(amount.currency()) : refunded;
  }
}
