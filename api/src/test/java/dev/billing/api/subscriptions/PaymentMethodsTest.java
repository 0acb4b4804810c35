package dev.billing.api.subscriptions;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Where the line between "a card number" and "something else" is drawn. */
class PaymentMethodsTest {

  @ParameterizedTest(name = "\"{0}\" is a card number: {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "4242424242424242     | true",
        "4242 4242 4242 4242  | true",
        "4242-4242-4242-4242  | true",
        "378282246310005      | true", // 15-digit Amex
        "123456789012         | true", // 12 digits, the shortest PAN
        "1234567890123456789  | true", // 19 digits, the longest PAN
        "12345678901          | false", // 11 digits
        "12345678901234567890 | false", // 20 digits
        "4242  4242 4242 4242 | false", // two separators in a row: not how cards are written
        "pm_card_visa         | false",
        "pm_4242424242424242  | false"
      })
  void recognizesCardNumbers(String value, boolean cardNumber) {
    assertThat(PaymentMethods.looksLikeCardNumber(value)).isEqualTo(cardNumber);
  }

  @ParameterizedTest(name = "mask of {0} is {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "pm_card_visa           | Visa •••• 4242",
        "pm_card_chargeDeclined | Visa •••• 0002",
        "pm_anything_else       | Card"
      })
  void masksComeFromTheCatalog(String token, String mask) {
    assertThat(PaymentMethods.maskOf(token)).isEqualTo(mask);
  }
}
