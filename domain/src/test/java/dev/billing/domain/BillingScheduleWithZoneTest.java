package dev.billing.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * A subscription moving to another time zone keeps its cycles and calendar due dates; only the
 * instants of those dates move, to the new zone's midnight (or its own time of day there).
 */
class BillingScheduleWithZoneTest {

  private static List<String> dueDates(BillingSchedule schedule, int cycles) {
    return LongStream.rangeClosed(1, cycles).mapToObj(c -> schedule.dueDate(c).toString()).toList();
  }

  @Test
  void theDay31AnchorKeepsEveryMonthEndInTheNewZone() {
    BillingSchedule utc = new BillingSchedule(YearMonth.of(2027, 11), 31, Term.MONTHLY, "UTC", 3);

    BillingSchedule losAngeles = utc.withZone("America/Los_Angeles");

    assertThat(dueDates(losAngeles, 7))
        .containsExactly(
            "2027-11-30",
            "2027-12-31",
            "2028-01-31",
            "2028-02-29",
            "2028-03-31",
            "2028-04-30",
            "2028-05-31")
        .isEqualTo(dueDates(utc, 7));
    // Standard time (UTC-8) in February, daylight time (UTC-7) from March 12, 2028.
    assertThat(losAngeles.dueAt(4)).isEqualTo(Instant.parse("2028-02-29T08:00:00Z"));
    assertThat(losAngeles.dueAt(5)).isEqualTo(Instant.parse("2028-03-31T07:00:00Z"));
    assertThat(losAngeles.dueAt(6)).isEqualTo(Instant.parse("2028-04-30T07:00:00Z"));
    assertThat(losAngeles.reminderDate(5)).isEqualTo(LocalDate.of(2028, 3, 28));
    assertThat(losAngeles.reminderAt(5)).isEqualTo(Instant.parse("2028-03-28T07:00:00Z"));
    assertThat(losAngeles.firstCycleOnOrAfter(1, LocalDate.of(2028, 3, 31))).isEqualTo(5);
  }

  @Test
  void theDayOfTheSpringChangeStillStartsAtMidnightInParis() {
    BillingSchedule newYork =
        new BillingSchedule(YearMonth.of(2028, 3), 26, Term.MONTHLY, "America/New_York", 3);

    BillingSchedule paris = newYork.withZone("Europe/Paris");

    // New York is on daylight time from March 12; Paris switches at 02:00 on March 26.
    assertThat(newYork.dueAt(1)).isEqualTo(Instant.parse("2028-03-26T04:00:00Z"));
    assertThat(paris.dueDate(1)).isEqualTo(LocalDate.of(2028, 3, 26));
    assertThat(paris.dueAt(1)).isEqualTo(Instant.parse("2028-03-25T23:00:00Z"));
    assertThat(paris.dueAt(2)).isEqualTo(Instant.parse("2028-04-25T22:00:00Z"));
    assertThat(paris.reminderAt(1)).isEqualTo(Instant.parse("2028-03-22T23:00:00Z"));
  }

  @Test
  void aDueDateWhoseMidnightTheNewZoneSkipsStartsAtTheEndOfTheGap() {
    BillingSchedule utc = new BillingSchedule(YearMonth.of(2028, 8), 3, Term.MONTHLY, "UTC", 0);

    BillingSchedule santiago = utc.withZone("America/Santiago");

    // Chile moves its clocks from 00:00 to 01:00 on Sunday 2028-09-03.
    assertThat(santiago.dueAt(1)).isEqualTo(Instant.parse("2028-08-03T04:00:00Z"));
    assertThat(santiago.dueDate(2)).isEqualTo(LocalDate.of(2028, 9, 3));
    assertThat(santiago.dueAt(2)).isEqualTo(Instant.parse("2028-09-03T04:00:00Z"));
    assertThat(santiago.dateAt(santiago.dueAt(2))).isEqualTo(LocalDate.of(2028, 9, 3));
    assertThat(santiago.dueAt(3)).isEqualTo(Instant.parse("2028-10-03T03:00:00Z"));
  }

  @Test
  void movingEastCanPutTheDueInstantInThePastWithoutChangingTheCycle() {
    BillingSchedule honolulu =
        new BillingSchedule(YearMonth.of(2028, 3), 15, Term.MONTHLY, "Pacific/Honolulu", 3);
    Instant now = Instant.parse("2028-03-14T12:00:00Z");

    BillingSchedule kiritimati = honolulu.withZone("Pacific/Kiritimati");

    // The same date, 24 hours earlier: already past at `now`, where it was 22 hours ahead.
    assertThat(honolulu.dueAt(1)).isEqualTo(Instant.parse("2028-03-15T10:00:00Z"));
    assertThat(kiritimati.dueAt(1)).isEqualTo(Instant.parse("2028-03-14T10:00:00Z"));
    assertThat(honolulu.dateAt(now)).isEqualTo(LocalDate.of(2028, 3, 14));
    assertThat(kiritimati.dateAt(now)).isEqualTo(LocalDate.of(2028, 3, 15));
    assertThat(kiritimati.dueDate(1)).isEqualTo(honolulu.dueDate(1));
    assertThat(kiritimati.firstCycleOnOrAfter(1, kiritimati.dateAt(now))).isEqualTo(1);
  }

  @Test
  void theTimeOfDayIsTheSameOffsetAfterTheNewZonesMidnight() {
    BillingSchedule utc =
        new BillingSchedule(YearMonth.of(2028, 1), 31, Term.MONTHLY, "UTC", 3)
            .withDueWindow(Duration.ofHours(6));

    BillingSchedule tokyo = utc.withZone("Asia/Tokyo");

    Duration offset = DueInstants.offset("sub-zone", Duration.ofHours(6));
    assertThat(DueInstants.dueAt(tokyo, 2, "sub-zone"))
        .isEqualTo(Instant.parse("2028-02-28T15:00:00Z").plus(offset));
    assertThat(tokyo.dateAt(DueInstants.dueAt(tokyo, 2, "sub-zone")))
        .isEqualTo(LocalDate.of(2028, 2, 29));
  }

  @Test
  void everythingButTheZoneStaysAndAnUnknownZoneIsRefused() {
    BillingSchedule schedule =
        new BillingSchedule(YearMonth.of(2028, 2), 29, Term.YEARLY, "UTC", 7)
            .withDueWindow(Duration.ofHours(6));

    BillingSchedule moved = schedule.withZone("Europe/Paris");

    assertThat(moved)
        .isEqualTo(
            new BillingSchedule(
                YearMonth.of(2028, 2), 29, Term.YEARLY, "Europe/Paris", 7, Duration.ofHours(6)));
    assertThat(moved.dueDate(2)).isEqualTo(LocalDate.of(2029, 2, 28));
    assertThatThrownBy(() -> schedule.withZone("Mars/Olympus"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("timeZone must be an IANA zone id such as \"Europe/Paris\"");
    assertThatThrownBy(() -> schedule.withZone(" ")).hasMessage("timeZone is required");
  }
}
