package dev.billing.activities.notifications;

import dev.billing.domain.Money;
import dev.billing.domain.Subscription;
import java.text.NumberFormat;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.FormatStyle;
import java.util.Currency;
import java.util.Locale;

/**
 * How a customer's messages write amounts and dates: in the subscription's locale (CLDR formats:
 * en-US "$9.99" and "February 1, 2026", fr-FR "9,99 $US" and "1 février 2026") and, for instants,
 * on the calendar of the subscription's time zone. Amounts always show the currency's own number of
 * decimals (¥1,200, not ¥1,200.00).
 */
public final class MessageFormats {
  private final Locale locale;
  private final ZoneId zone;
  private final DateTimeFormatter dates;

  public MessageFormats(Locale locale, ZoneId zone) {
    this.locale = locale;
    this.zone = zone;
    this.dates = DateTimeFormatter.ofLocalizedDate(FormatStyle.LONG).withLocale(locale);
  }

  /**
   * @param languageTag BCP 47; null, blank or unknown ("und") means {@value
   *     Subscription#DEFAULT_LOCALE}
   * @param timeZone IANA zone id; null means UTC
   */
  public static MessageFormats of(String languageTag, String timeZone) {
    return new MessageFormats(
        locale(languageTag),
        timeZone == null || timeZone.isBlank() ? ZoneId.of("UTC") : ZoneId.of(timeZone));
  }

  static Locale locale(String languageTag) {
    Locale parsed = languageTag == null ? Locale.ROOT : Locale.forLanguageTag(languageTag.strip());
    return parsed.getLanguage().isEmpty()
        ? Locale.forLanguageTag(Subscription.DEFAULT_LOCALE)
        : parsed;
  }

  public String money(Money amount) {
    NumberFormat format = NumberFormat.getCurrencyInstance(locale);
    format.setCurrency(Currency.getInstance(amount.currency()));
    int digits = Money.fractionDigits(amount.currency());
    format.setMinimumFractionDigits(digits);
    format.setMaximumFractionDigits(digits);
    return format.format(amount.toDecimal());
  }

  public String date(LocalDate date) {
    return dates.format(date);
  }

  /** The calendar date of the instant in the subscription's zone. */
  public String date(Instant instant) {
    return date(LocalDate.ofInstant(instant, zone));
  }

  public Locale locale() {
    return locale;
  }
}
