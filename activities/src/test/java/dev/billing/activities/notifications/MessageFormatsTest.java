package dev.billing.activities.notifications;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.Money;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class MessageFormatsTest {
  private final MessageFormats usInNewYork = MessageFormats.of("en-US", "America/New_York");

  @Test
  void amountsShowTheCurrencySymbolAndItsOwnNumberOfDecimals() {
    assertThat(usInNewYork.money(Money.parse("9.99", "USD"))).isEqualTo("$9.99");
    assertThat(usInNewYork.money(Money.parse("9.99", "EUR"))).isEqualTo("€9.99");
    assertThat(usInNewYork.money(Money.parse("1200", "JPY"))).isEqualTo("¥1,200");
    assertThat(usInNewYork.money(Money.parse("1234.5", "USD"))).isEqualTo("$1,234.50");
    assertThat(usInNewYork.money(Money.parse("12.345", "BHD"))).isEqualTo("BHD12.345");
  }

  @Test
  void anotherLocaleWritesAmountsAndDatesItsWay() {
    MessageFormats french = MessageFormats.of("fr-FR", "Europe/Paris");

    // CLDR puts a narrow no-break space between the amount and the symbol.
    assertThat(french.money(Money.parse("9.99", "EUR"))).isEqualTo("9,99\u00a0€");
    assertThat(french.date(LocalDate.of(2026, 2, 1))).isEqualTo("1 février 2026");
  }

  @Test
  void anInstantIsDatedOnTheSubscriptionsCalendar() {
    Instant lateEvening = Instant.parse("2026-03-01T03:30:00Z");

    assertThat(usInNewYork.date(lateEvening)).isEqualTo("February 28, 2026");
    assertThat(MessageFormats.of("en-US", "Asia/Tokyo").date(lateEvening))
        .isEqualTo("March 1, 2026");
  }

  @Test
  void noLocaleMeansEnUs() {
    assertThat(MessageFormats.of(null, "UTC").money(Money.parse("9.99", "USD"))).isEqualTo("$9.99");
    assertThat(MessageFormats.of(" ", "UTC").date(LocalDate.of(2026, 2, 1)))
        .isEqualTo("February 1, 2026");
  }
}
