package dev.billing.activities.reconciliation;

import dev.billing.domain.Term;
import dev.billing.store.DuePayment;
import dev.billing.store.ReconciliationQueries;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Who paid on given days, from GSI-2 (NextPaymentDate partitions, LastPaymentDate sort key). */
final class PaidIndex {
  /**
   * Successful retries come this many days after the due date at most (the default dunning policy).
   */
  static final int DUNNING_DAYS = 7;

  private PaidIndex() {}

  /**
   * Subscriptions whose last payment was on one of the days {@code first..last} (UTC): a payment
   * for a period due from {@value #DUNNING_DAYS} days before such a day to the day after (zones
   * ahead of UTC) moved the subscription to that period's next due date, so those partitions of
   * GSI-2 hold them, and the sort key (LastPaymentDate) bounds each read to the days. One read per
   * partition for all the days of a call.
   */
  static List<DuePayment> read(ReconciliationQueries queries, LocalDate first, LocalDate last) {
    Set<LocalDate> partitions = new TreeSet<>();
    for (LocalDate due = first.minusDays(DUNNING_DAYS);
        !due.isAfter(last.plusDays(1));
        due = due.plusDays(1)) {
      partitions.addAll(nextDueDates(due));
    }
    Instant from = first.atStartOfDay(ZoneOffset.UTC).toInstant();
    Instant to = last.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant().minusMillis(1);
    Set<DuePayment> paid = new LinkedHashSet<>();
    for (LocalDate partition : partitions) {
      paid.addAll(queries.paidBetween(partition, from, to));
    }
    return List.copyOf(paid);
  }

  /**
   * Every date a period due on {@code due} can have as its next due date, for every term and
   * billing day.
   */
  static Set<LocalDate> nextDueDates(LocalDate due) {
    Set<LocalDate> next = new TreeSet<>();
    YearMonth month = YearMonth.from(due);
    for (Term term : Term.values()) {
      YearMonth following = month.plusMonths(term.months());
      for (int billingDay = 1; billingDay <= 31; billingDay++) {
        if (month.atDay(Math.min(billingDay, month.lengthOfMonth())).equals(due)) {
          next.add(following.atDay(Math.min(billingDay, following.lengthOfMonth())));
        }
      }
    }
    return next;
  }
}
