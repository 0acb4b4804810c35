package dev.billing.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MoneyTest {

  @ParameterizedTest(name = "{0} {1} = {2} minor units, shown as {3}")
  @CsvSource({
    "9.99,      USD, 999,     9.99",
    "9.9,       USD, 990,     9.90",
    "9.990,     USD, 999,     9.99",
    "10,        USD, 1000,    10.00",
    "0.01,      EUR, 1,       0.01",
    "' 12.50 ', GBP, 1250,    12.50",
    "1500,      JPY, 1500,    1500",
    "-5,        USD, -500,    -5.00",
    "1.234,     BHD, 1234,    1.234",
    "1000000000, USD, 100000000000, 1000000000.00"
  })
  void parsesDecimalStringsExactlyInMinorUnits(
      String decimal, String currency, long minor, String plain) {
    Money money = Money.parse(decimal, currency);

    assertThat(money.minor()).isEqualTo(minor);
    assertThat(money.currency()).isEqualTo(currency);
    assertThat(money.toPlainString()).isEqualTo(plain);
  }

  @ParameterizedTest(name = "{0} {1} is rejected: {2}")
  @CsvSource({
    "9.999,         USD, amount has more decimals than USD allows (2)",
    "0.5,           JPY, amount has more decimals than JPY allows (0)",
    "1.2345,        BHD, amount has more decimals than BHD allows (3)",
    "1000000000.01, USD, amount must not exceed 1000000000",
    "nine,          USD, amount must be a decimal number such as \"9.99\"",
    "1E+2,          USD, amount must be a decimal number such as \"9.99\"",
    "+5,            USD, amount must be a decimal number such as \"9.99\"",
    "'  ',          USD, amount is required",
    "9.99,          usd, currency must be an ISO 4217 code such as \"USD\"",
    "9.99,          ABC, currency must be an ISO 4217 code such as \"USD\"",
    "1,             XAU, currency XAU has no minor unit and cannot be billed"
  })
  void rejectsWhatCannotBeBilledExactly(String decimal, String currency, String message) {
    assertThatThrownBy(() -> Money.parse(decimal, currency))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void rejectsMissingAmount() {
    assertThatThrownBy(() -> Money.parse(null, "USD")).hasMessage("amount is required");
  }

  @Test
  void equalAmountsWrittenDifferentlyAreEqual() {
    assertThat(Money.parse("9.9", "USD")).isEqualTo(Money.parse("9.90", "USD"));
    assertThat(Money.parse("9.9", "USD")).isNotEqualTo(Money.parse("9.9", "EUR"));
  }

  @Test
  void addsAndSubtractsInMinorUnits() {
    Money price = Money.parse("9.99", "USD");

    assertThat(price.plus(Money.parse("0.01", "USD"))).isEqualTo(new Money(1000, "USD"));
    assertThat(price.minus(Money.parse("10", "USD"))).isEqualTo(new Money(-1, "USD"));
    assertThat(price.minus(Money.parse("10", "USD")).toPlainString()).isEqualTo("-0.01");
    assertThat(price.greaterThanZero()).isTrue();
    assertThat(Money.zero("USD").greaterThanZero()).isFalse();
  }

  @Test
  void refusesToMixCurrencies() {
    assertThatThrownBy(() -> Money.parse("1", "USD").plus(Money.parse("1", "EUR")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("currency mismatch: USD and EUR");
  }

  @Test
  void ofKeepsTheCurrencyScale() {
    assertThat(Money.of(new BigDecimal("7"), "BHD").toDecimal()).isEqualTo(new BigDecimal("7.000"));
    assertThat(Money.of(new BigDecimal("7"), "BHD").minor()).isEqualTo(7000);
  }

  @Test
  void readsAsAmountAndCurrency() {
    assertThat(Money.parse("1234.5", "EUR")).hasToString("1234.50 EUR");
  }
}
