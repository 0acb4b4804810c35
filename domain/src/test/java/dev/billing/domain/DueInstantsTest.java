package dev.billing.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneId;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class DueInstantsTest {
  private static final Duration SIX_HOURS = Duration.ofHours(6);
  private static final BillingSchedule NEW_YORK =
      new BillingSchedule(
          YearMonth.of(2028, 1), 20, Term.MONTHLY, "America/New_York", 3, SIX_HOURS);

  @Test
  void aSubscriptionIsRemindedAndChargedAtItsOwnTimeOfDayInItsZone() {
    // sub-spread's offset in a six-hour window is 00:33:14 (SHA-256 of "due-instant:sub-spread").
    assertThat(DueInstants.offset("sub-spread", SIX_HOURS)).isEqualTo(Duration.parse("PT33M14S"));
    assertThat(DueInstants.dueAt(NEW_YORK, 1, "sub-spread"))
        .isEqualTo(Instant.parse("2028-01-20T05:33:14Z"));
    assertThat(DueInstants.reminderAt(NEW_YORK, 1, "sub-spread"))
        .isEqualTo(Instant.parse("2028-01-17T05:33:14Z"));
    assertThat(DueInstants.dueAt(NEW_YORK, 2, "sub-spread"))
        .isEqualTo(Instant.parse("2028-02-20T05:33:14Z"));
    // Another id, another time of day; the same id, the same time every cycle.
    assertThat(DueInstants.dueAt(NEW_YORK, 1, "sub-history-spread"))
        .isEqualTo(Instant.parse("2028-01-20T08:35:06Z"));
  }

  @Test
  void theOffsetStaysInsideTheWindowAndSpreadsEvenly() {
    int[] perHour = new int[6];
    IntStream.range(0, 60_000)
        .forEach(
            i -> {
              Duration offset = DueInstants.offset("sub_" + i, SIX_HOURS);
              assertThat(offset).isGreaterThanOrEqualTo(Duration.ZERO).isLessThan(SIX_HOURS);
              perHour[(int) offset.toHours()]++;
            });
    // 10,000 expected per hour; a uniform hash stays within a few standard deviations (~91).
    assertThat(IntStream.of(perHour).boxed().toList()).allMatch(n -> n > 9_600 && n < 10_400);
  }

  @Test
  void noWindowOrAnEmptyOneIsMidnightAsBefore() {
    BillingSchedule midnight =
        new BillingSchedule(YearMonth.of(2028, 1), 20, Term.MONTHLY, "America/New_York", 3);
    assertThat(DueInstants.dueAt(midnight, 1, "sub-spread"))
        .isEqualTo(midnight.dueAt(1))
        .isEqualTo(Instant.parse("2028-01-20T05:00:00Z"));
    assertThat(DueInstants.reminderAt(midnight.withDueWindow(Duration.ZERO), 1, "sub-spread"))
        .isEqualTo(midnight.reminderAt(1));
  }

  @Test
  void aTimeTheSpringForwardSkipsMovesOnByTheGapAndStaysOnTheDate() {
    // New York skips 02:00-03:00 on 2028-03-12; sub-dst-10's offset in 20 h is 02:07:09.
    BillingSchedule dst =
        new BillingSchedule(
            YearMonth.of(2028, 3), 12, Term.MONTHLY, "America/New_York", 0, Duration.ofHours(20));
    assertThat(DueInstants.offset("sub-dst-10", Duration.ofHours(20)))
        .isEqualTo(Duration.parse("PT2H7M9S"));
    Instant due = DueInstants.dueAt(dst, 1, "sub-dst-10");
    assertThat(due).isEqualTo(Instant.parse("2028-03-12T07:07:09Z"));
    assertThat(due.atZone(ZoneId.of("America/New_York")).toLocalDate())
        .isEqualTo(LocalDate.of(2028, 3, 12));
    // On 2028-11-05 01:00-02:00 happens twice: the first of them (EDT) is taken.
    BillingSchedule fall =
        new BillingSchedule(
            YearMonth.of(2028, 11), 5, Term.MONTHLY, "America/New_York", 0, Duration.ofHours(20));
    assertThat(DueInstants.dueAt(fall, 1, "sub-fall-0"))
        .isEqualTo(Instant.parse("2028-11-05T05:10:14Z"));
  }

  @Test
  void theWindowIsKeptWithTheScheduleAndBounded() {
    assertThat(NEW_YORK.withBillingDay(1, 25).dueWindow()).isEqualTo(SIX_HOURS);
    assertThat(
            BillingSchedule.startingOnOrAfter(LocalDate.of(2028, 1, 3), 20, Term.MONTHLY, "UTC", 3)
                .dueWindow())
        .isNull();
    assertThatThrownBy(() -> NEW_YORK.withDueWindow(Duration.ofHours(21)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("dueWindow");
    assertThatThrownBy(() -> NEW_YORK.withDueWindow(Duration.ofMinutes(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> NEW_YORK.withDueWindow(Duration.ofMillis(1500)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
