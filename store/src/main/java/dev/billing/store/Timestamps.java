package dev.billing.store;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * How instants and dates are written to DynamoDB: fixed-width UTC strings, so they sort by time.
 */
final class Timestamps {

  /**
   * Stored in LastPaymentDate/LastReminderDate before the first payment/reminder: those are GSI
   * sort keys, and a GSI indexes an item only when both its key attributes exist.
   */
  static final String NEVER = "NEVER";

  private static final DateTimeFormatter INSTANT =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private Timestamps() {}

  static String format(Instant instant) {
    return INSTANT.format(instant);
  }

  static Instant parse(String text) {
    return Instant.parse(text);
  }

  static String formatOrNever(Instant instant) {
    return instant == null ? NEVER : format(instant);
  }

  static Instant parseOrNever(String text) {
    return text == null || NEVER.equals(text) ? null : parse(text);
  }

  static String date(LocalDate date) {
    return date.toString();
  }

  static LocalDate parseDate(String text) {
    return LocalDate.parse(text);
  }
}
