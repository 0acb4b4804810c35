package dev.billing.activities.views;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** The API's wire formats: the same fixed-width UTC instants the store writes, ISO dates. */
public final class Timestamps {
  private static final DateTimeFormatter INSTANT =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private Timestamps() {}

  public static String instant(Instant instant) {
    return instant == null ? null : INSTANT.format(instant);
  }

  public static String date(LocalDate date) {
    return date == null ? null : date.toString();
  }
}
