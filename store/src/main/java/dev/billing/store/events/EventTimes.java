package dev.billing.store.events;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The event time, written three ways (all UTC, fixed width, so strings sort by time): the whole
 * timestamp, and its date and time of day apart, which key the date index.
 */
final class EventTimes {
  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter DATE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

  private EventTimes() {}

  static String timestamp(Instant at) {
    return TIMESTAMP.format(at);
  }

  static String date(Instant at) {
    return DATE.format(at);
  }

  static String date(LocalDate date) {
    return DATE.format(date);
  }

  static String time(Instant at) {
    return TIME.format(at);
  }

  static Instant parse(String timestamp) {
    return Instant.parse(timestamp);
  }

  static Instant parse(String date, String time) {
    return Instant.parse(date + "T" + time + "Z");
  }
}
