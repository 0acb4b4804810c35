package dev.billing.api.input;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SensitiveNumbersTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "4242424242424242",
        "4242 4242 4242 4242",
        "5555-5555-5555-4444",
        "378282246310005",
        "my card 4000 0566 5566 5556 was charged",
        "6011111111111117",
        "card:4242424242424242.",
        "acc_4242424242424242",
        "4242424242424242@example.com"
      })
  void findsCardNumbers(String text) {
    assertThat(SensitiveNumbers.containsCardNumber(text)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "4242424242424241",
        "order 123456789012",
        "2026-03-10",
        "12345678901234567890123",
        "pm_card_visa",
        "9.99",
        "4242 4242  4242 4242",
        "sub_ab4242424242424242cd",
        "card4242424242424242"
      })
  void leavesOtherNumbersAlone(String text) {
    assertThat(SensitiveNumbers.containsCardNumber(text)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "GB82WEST12345698765432",
        "GB82 WEST 1234 5698 7654 32",
        "DE89370400440532013000",
        "iban fr1420041010050500013m02606 please",
        "NL91ABNA0417164300",
        "GB82 WEST 1234 5698 7654 32 1"
      })
  void findsIbans(String text) {
    assertThat(SensitiveNumbers.containsIban(text)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "GB82WEST12345698765431",
        "GB82WEST1234569876543",
        "ZZ82WEST12345698765432",
        "PLUS12MONTHLYPRO2026",
        "pro-monthly"
      })
  void leavesOtherCodesAlone(String text) {
    assertThat(SensitiveNumbers.containsIban(text)).isFalse();
  }
}
