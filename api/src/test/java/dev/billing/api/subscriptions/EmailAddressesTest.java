package dev.billing.api.subscriptions;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EmailAddressesTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "ana@example.com",
        "ana.maria+billing@mail.example.co.uk",
        "o'brien@example.ie",
        "x@a-b.io",
        "UPPER@EXAMPLE.COM"
      })
  void plainMailboxesAreAccepted(String email) {
    assertThat(EmailAddresses.problem(email)).isNull();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "ana",
        "ana@",
        "@example.com",
        "ana@@example.com",
        "ana@example",
        "ana@-example.com",
        "ana@example..com",
        "ana..b@example.com",
        ".ana@example.com",
        "ana@example.com.",
        "\"ana b\"@example.com",
        "ana@exämple.com",
        "anä@example.com",
        "ana@example.com\nBcc: eve@example.com",
        "Ana <ana@example.com>",
        "<ana@example.com>",
        "ana@example.com, bo@example.com",
        "ana@[10.0.0.1]",
        "ana(comment)@example.com"
      })
  void anythingElseIsRefused(String email) {
    assertThat(EmailAddresses.problem(email)).isNotNull();
  }

  @ParameterizedTest
  @ValueSource(ints = {65, 300})
  void lengthsFollowRfc5321(int localLength) {
    String email = "a".repeat(localLength) + "@example.com";

    assertThat(EmailAddresses.problem(email))
        .isIn(
            "the part of email before '@' must be at most 64 characters",
            "email must be at most 254 characters");
    assertThat(EmailAddresses.problem("a".repeat(64) + "@example.com")).isNull();
  }
}
