package dev.billing.workflows.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.DunningPolicy;
import dev.billing.domain.DunningPolicy.FinalOutcome;
import dev.billing.domain.Term;
import dev.billing.workflows.OpenPeriod;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;

class DunningScheduleTest {

  private static final BillingSchedule PARIS =
      new BillingSchedule(YearMonth.of(2028, 3), 24, Term.MONTHLY, "Europe/Paris", 3);
  private static final DunningPolicy POLICY =
      new DunningPolicy(List.of(1, 3, 5, 7), FinalOutcome.LEAVE_UNPAID);

  @Test
  void retriesAreAtLocalMidnightCountedFromTheDueDateAcrossDaylightSaving() {
    LocalDate due = PARIS.dueDate(1); // 2028-03-24, summer time starts on the 26th
    assertThat(
            List.of(0, 1, 2, 3).stream()
                .map(i -> DunningSchedule.retryAt(PARIS, due, POLICY, i))
                .toList())
        .containsExactly(
            Instant.parse("2028-03-24T23:00:00Z"),
            Instant.parse("2028-03-26T22:00:00Z"),
            Instant.parse("2028-03-28T22:00:00Z"),
            Instant.parse("2028-03-30T22:00:00Z"));
  }

  @Test
  void usedRetriesCountEveryDateThatHasComeAndCollapseMissedOnes() {
    LocalDate due = LocalDate.of(2028, 3, 24);
    assertThat(DunningSchedule.usedAt(PARIS, due, POLICY, 0, Instant.parse("2028-03-24T00:05:00Z")))
        .isZero();
    assertThat(DunningSchedule.usedAt(PARIS, due, POLICY, 0, Instant.parse("2028-03-24T23:00:00Z")))
        .isEqualTo(1);
    // The worker was down until after the third date: one attempt, then the fourth date.
    assertThat(DunningSchedule.usedAt(PARIS, due, POLICY, 1, Instant.parse("2028-03-29T08:00:00Z")))
        .isEqualTo(3);
    // An extra attempt between dates (new payment method) uses none up.
    assertThat(DunningSchedule.usedAt(PARIS, due, POLICY, 1, Instant.parse("2028-03-25T12:00:00Z")))
        .isEqualTo(1);
    assertThat(DunningSchedule.usedAt(PARIS, due, POLICY, 4, Instant.parse("2028-04-30T00:00:00Z")))
        .isEqualTo(4);
  }

  @Test
  void nextRetryIsNullOnceTheScheduleIsUsedUp() {
    OpenPeriod third =
        OpenPeriod.dunning(
            1, 3, false, POLICY, LocalDate.of(2028, 3, 24), 2, "card_declined", null, null);
    assertThat(DunningSchedule.nextRetryAt(PARIS, third))
        .isEqualTo(Instant.parse("2028-03-28T22:00:00Z"));
    assertThat(DunningSchedule.exhausted(third)).isFalse();
    OpenPeriod done = third.withRetriesUsed(4);
    assertThat(DunningSchedule.nextRetryAt(PARIS, done)).isNull();
    assertThat(DunningSchedule.exhausted(done)).isTrue();
  }
}
