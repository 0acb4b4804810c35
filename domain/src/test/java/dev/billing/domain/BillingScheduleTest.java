package dev.billing.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BillingScheduleTest {

  private static List<String> dueDates(BillingSchedule schedule, int cycles) {
    return LongStream.rangeClosed(1, cycles).mapToObj(c -> schedule.dueDate(c).toString()).toList();
  }

  @Test
  void day31ClampsToEachMonthsLastDayAndNeverDrifts() {
    BillingSchedule schedule =
        new BillingSchedule(YearMonth.of(2027, 11), 31, Term.MONTHLY, "UTC", 0);

    assertThat(dueDates(schedule, 17))
        .containsExactly(
            "2027-11-30",
            "2027-12-31",
            "2028-01-31",
            "2028-02-29",
            "2028-03-31",
            "2028-04-30",
            "2028-05-31",
            "2028-06-30",
            "2028-07-31",
            "2028-08-31",
            "2028-09-30",
            "2028-10-31",
            "2028-11-30",
            "2028-12-31",
            "2029-01-31",
            "2029-02-28",
            "2029-03-31");
  }

  @Test
  void day30IsTheLastDayOfFebruaryThenBackTo30() {
    BillingSchedule schedule =
        new BillingSchedule(YearMonth.of(2029, 1), 30, Term.MONTHLY, "UTC", 0);

    assertThat(dueDates(schedule, 3)).containsExactly("2029-01-30", "2029-02-28", "2029-03-30");
  }

  @Test
  void yearlyFeb29AnchorFallsBackTo28InCommonYears() {
    BillingSchedule schedule =
        new BillingSchedule(YearMonth.of(2028, 2), 29, Term.YEARLY, "UTC", 0);

    assertThat(dueDates(schedule, 5))
        .containsExactly("2028-02-29", "2029-02-28", "2030-02-28", "2031-02-28", "2032-02-29");
  }

  @Test
  void farCyclesAreComputedFromTheAnchor() {
    BillingSchedule schedule =
        new BillingSchedule(YearMonth.of(2028, 1), 31, Term.MONTHLY, "UTC", 0);

    assertThat(schedule.dueDate(1200)).isEqualTo(LocalDate.of(2127, 12, 31));
    assertThat(schedule.dueDate(1202)).isEqualTo(LocalDate.of(2128, 2, 29));
  }

  @ParameterizedTest(name = "start {0}, day {1} -> first payment {2}")
  @CsvSource({
    "2028-02-15, 10, 2028-03-10",
    "2028-02-15, 15, 2028-02-15",
    "2028-02-15, 31, 2028-02-29",
    "2028-02-29, 31, 2028-02-29",
    "2028-01-31, 30, 2028-02-29",
    "2027-12-31, 31, 2027-12-31",
    "2027-12-31, 1,  2028-01-01",
    "2029-02-28, 29, 2029-02-28"
  })
  void firstPaymentIsTheFirstBillingDateOnOrAfterTheStart(String start, int day, String first) {
    BillingSchedule schedule =
        BillingSchedule.startingOnOrAfter(LocalDate.parse(start), day, Term.MONTHLY, "UTC", 0);

    assertThat(schedule.dueDate(1)).isEqualTo(LocalDate.parse(first));
  }

  @Test
  void startingOnOrAfterKeepsTheBillingDayForLaterCycles() {
    BillingSchedule schedule =
        BillingSchedule.startingOnOrAfter(LocalDate.of(2028, 1, 31), 30, Term.MONTHLY, "UTC", 0);

    assertThat(schedule.anchorMonth()).isEqualTo(YearMonth.of(2028, 2));
    assertThat(dueDates(schedule, 3)).containsExactly("2028-02-29", "2028-03-30", "2028-04-30");
  }

  @ParameterizedTest(name = "{0}: start of {1} is {2}")
  @CsvSource({
    // Paris switches at 02:00, so the day of the switch still starts at midnight CET.
    "Europe/Paris,     2028-03-25, 2028-03-24T23:00:00Z",
    "Europe/Paris,     2028-03-26, 2028-03-25T23:00:00Z",
    "Europe/Paris,     2028-03-27, 2028-03-26T22:00:00Z",
    "Europe/Paris,     2028-10-29, 2028-10-28T22:00:00Z",
    "Europe/Paris,     2028-10-30, 2028-10-29T23:00:00Z",
    "America/New_York, 2028-03-12, 2028-03-12T05:00:00Z",
    "America/New_York, 2028-03-13, 2028-03-13T04:00:00Z",
    "America/New_York, 2028-11-05, 2028-11-05T04:00:00Z",
    "America/New_York, 2028-11-06, 2028-11-06T05:00:00Z",
    // Sao Paulo skipped 00:00-01:00 on 2018-11-04: the day starts at 01:00 -02:00.
    "America/Sao_Paulo, 2018-11-04, 2018-11-04T03:00:00Z",
    "America/Sao_Paulo, 2018-11-03, 2018-11-03T03:00:00Z",
    "Asia/Tokyo,       2028-02-29, 2028-02-28T15:00:00Z"
  })
  void instantsAreTheStartOfTheDayInTheSubscriptionsZone(String zone, String date, String instant) {
    BillingSchedule schedule = new BillingSchedule(YearMonth.of(2028, 1), 1, Term.MONTHLY, zone, 0);

    assertThat(schedule.startOfDay(LocalDate.parse(date))).isEqualTo(Instant.parse(instant));
    assertThat(schedule.dateAt(Instant.parse(instant))).isEqualTo(LocalDate.parse(date));
  }

  @Test
  void dueAndReminderInstantsAcrossTheSpringChangeInParis() {
    BillingSchedule schedule =
        new BillingSchedule(YearMonth.of(2028, 3), 30, Term.MONTHLY, "Europe/Paris", 5);

    assertThat(schedule.reminderDate(1)).isEqualTo(LocalDate.of(2028, 3, 25));
    assertThat(schedule.reminderAt(1)).isEqualTo(Instant.parse("2028-03-24T23:00:00Z"));
    assertThat(schedule.dueAt(1)).isEqualTo(Instant.parse("2028-03-29T22:00:00Z"));
    assertThat(schedule.reminderAt(8)).isEqualTo(Instant.parse("2028-10-24T22:00:00Z"));
    assertThat(schedule.dueAt(8)).isEqualTo(Instant.parse("2028-10-29T23:00:00Z"));
  }

  @ParameterizedTest(name = "due {1} of cycle {0}, {2} days before -> reminder {3}")
  @CsvSource({
    "1, 2028-03-03, 5, 2028-02-27",
    "13, 2029-03-03, 5, 2029-02-26",
    "1, 2028-03-03, 0, 2028-03-03",
    "11, 2029-01-03, 28, 2028-12-06"
  })
  void remindersAreCalendarDaysBeforeTheDueDate(
      long cycle, String due, int daysBefore, String reminder) {
    BillingSchedule schedule =
        new BillingSchedule(YearMonth.of(2028, 3), 3, Term.MONTHLY, "UTC", daysBefore);

    assertThat(schedule.dueDate(cycle)).isEqualTo(LocalDate.parse(due));
    assertThat(schedule.reminderDate(cycle)).isEqualTo(LocalDate.parse(reminder));
    assertThat(schedule.reminderAt(cycle)).isEqualTo(Instant.parse(reminder + "T00:00:00Z"));
  }

  @Test
  void rejectsInvalidSchedules() {
    YearMonth month = YearMonth.of(2028, 1);
    assertThatThrownBy(() -> new BillingSchedule(month, 0, Term.MONTHLY, "UTC", 0))
        .hasMessage("billingDay must be between 1 and 31");
    assertThatThrownBy(() -> new BillingSchedule(month, 32, Term.MONTHLY, "UTC", 0))
        .hasMessage("billingDay must be between 1 and 31");
    assertThatThrownBy(() -> new BillingSchedule(month, 1, Term.MONTHLY, "UTC", 29))
        .hasMessage("reminderDaysBefore must be between 0 and 28");
    assertThatThrownBy(() -> new BillingSchedule(month, 1, Term.MONTHLY, "UTC", -1))
        .hasMessage("reminderDaysBefore must be between 0 and 28");
    assertThatThrownBy(() -> new BillingSchedule(month, 1, Term.MONTHLY, "Mars/Olympus", 0))
        .hasMessage("timeZone must be an IANA zone id such as \"Europe/Paris\"");
    assertThatThrownBy(() -> new BillingSchedule(month, 1, Term.MONTHLY, " ", 0))
        .hasMessage("timeZone is required");
    assertThatThrownBy(() -> new BillingSchedule(month, 1, Term.MONTHLY, "UTC", 0).dueDate(0))
        .hasMessage("cycle starts at 1");
  }
}
