package dev.billing.activities.notifications;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SmtpSettingsTest {

  @Test
  void thePortDefaultsToTheTlsModesPort() {
    assertThat(
            new SmtpSettings("mx", 0, SmtpTls.NONE, null, null, "b@example.com", null, null).port())
        .isEqualTo(25);
    assertThat(
            new SmtpSettings("mx", 0, SmtpTls.STARTTLS, null, null, "b@example.com", null, null)
                .port())
        .isEqualTo(587);
    assertThat(
            new SmtpSettings("mx", 0, SmtpTls.SMTPS, null, null, "b@example.com", null, null)
                .port())
        .isEqualTo(465);
    assertThat(
            new SmtpSettings("mx", 2525, SmtpTls.STARTTLS, null, null, "b@example.com", null, null)
                .port())
        .isEqualTo(2525);
  }

  @Test
  void theTlsModeIsOneOfThree() {
    assertThat(SmtpTls.parse("StartTLS")).isEqualTo(SmtpTls.STARTTLS);
    assertThat(SmtpTls.parse("")).isEqualTo(SmtpTls.NONE);
    assertThatThrownBy(() -> SmtpTls.parse("ssl"))
        .hasMessage("SMTP TLS mode must be none, starttls or smtps (got \"ssl\")");
  }

  @Test
  void thePasswordIsNeverPrinted() {
    SmtpSettings settings =
        new SmtpSettings(
            "smtp.example.com",
            587,
            SmtpTls.STARTTLS,
            "apikey",
            "s3cr3t-password",
            "Billing <billing@example.com>",
            null,
            null);

    assertThat(settings.toString())
        .doesNotContain("s3cr3t-password")
        .contains("password=(set)")
        .contains("username=apikey");
  }

  @Test
  void aUsernameNeedsItsPasswordAndAPasswordItsUsername() {
    assertThatThrownBy(
            () ->
                new SmtpSettings(
                    "mx", 587, SmtpTls.STARTTLS, "apikey", null, "b@example.com", null, null))
        .hasMessage("SMTP username apikey is set but the password is not (BILLING_SMTP_PASSWORD)");
    assertThatThrownBy(
            () ->
                new SmtpSettings(
                    "mx", 587, SmtpTls.STARTTLS, null, "pw", "b@example.com", null, null))
        .hasMessage("an SMTP password needs a username");
  }

  @Test
  void theFromAddressMustParse() {
    assertThat(
            SmtpSettings.plain("mx", 25, "Billing <billing@example.com>")
                .fromAddress()
                .getAddress())
        .isEqualTo("billing@example.com");
    assertThatThrownBy(() -> SmtpSettings.plain("mx", 25, "billing at example.com"))
        .hasMessageStartingWith("the From address is not valid: \"billing at example.com\"");
  }

  @Test
  void receiptsGetShorterTimeoutsOnTheSameServer() {
    SmtpSettings settings = SmtpSettings.plain("mx", 25, "b@example.com");

    SmtpSettings receipts = settings.withTimeoutsAtMost(Duration.ofSeconds(3));

    assertThat(receipts.connectTimeout()).isEqualTo(Duration.ofSeconds(3));
    assertThat(receipts.timeout()).isEqualTo(Duration.ofSeconds(3));
    assertThat(receipts.host()).isEqualTo("mx");
  }
}
