package dev.billing.api.webhooks;

import static dev.billing.api.webhooks.WebhookSignatures.Verdict.MISMATCH;
import static dev.billing.api.webhooks.WebhookSignatures.Verdict.OUTSIDE_TOLERANCE;
import static dev.billing.api.webhooks.WebhookSignatures.Verdict.VALID;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The Stripe endpoint's check (stripe-java) keeps the documented rules of the scheme. */
class StripeSignaturesTest {
  private static final String SECRET = "whsec_test_secret";
  private static final byte[] KEY = SECRET.getBytes(StandardCharsets.UTF_8);
  private static final long T = 1773144000L; // 2026-03-10T12:00:00Z
  private static final Instant NOW = Instant.ofEpochSecond(T);
  private static final String BODY = "{\"id\":\"evt_1\",\"amount\":\"9.99\",\"note\":\"Zürich\"}";

  @Test
  void acceptsAnyOfSeveralV1SignaturesAndIgnoresV0() {
    String valid = WebhookSigning.hmacHex(SECRET, T + "." + BODY);

    assertThat(verify("t=" + T + ",v1=" + valid, BODY, NOW)).isEqualTo(VALID);
    assertThat(verify("t=" + T + ",v1=" + "ab".repeat(32) + ",v1=" + valid, BODY, NOW))
        .isEqualTo(VALID);
    assertThat(verify(" t=" + T + " , v0=" + "cd".repeat(32) + ", v1=" + valid, BODY, NOW))
        .isEqualTo(VALID);
    assertThat(verify("t=" + T + ",v0=" + valid + ",v1=" + "ab".repeat(32), BODY, NOW))
        .isEqualTo(MISMATCH);
  }

  @Test
  void theSignatureCoversTheTimestampAndEveryByteOfTheBody() {
    String signed = WebhookSigning.header(SECRET, T, BODY);

    assertThat(verify(signed, BODY + " ", NOW)).isEqualTo(MISMATCH);
    assertThat(verify(signed, BODY.replace("9.99", "9.98"), NOW)).isEqualTo(MISMATCH);
    assertThat(verify(signed.replace("t=" + T, "t=" + (T + 1)), BODY, NOW)).isEqualTo(MISMATCH);
    assertThat(verify(WebhookSigning.header("whsec_other", T, BODY), BODY, NOW))
        .isEqualTo(MISMATCH);
    assertThat(verify("t=" + T + ",v1=" + "zz".repeat(32), BODY, NOW)).isEqualTo(MISMATCH);
    assertThat(verify("t=" + T + ",v1=abc", BODY, NOW)).isEqualTo(MISMATCH);
    assertThat(verify("t=0,v1=" + WebhookSigning.hmacHex(SECRET, "0." + BODY), BODY, NOW))
        .isEqualTo(MISMATCH);
  }

  @Test
  void aBodyThatIsNotUtf8MatchesNothing() {
    byte[] latin1 = BODY.getBytes(StandardCharsets.ISO_8859_1);
    String header = "t=" + T + ",v1=" + WebhookSigning.hmacHex(SECRET, T + "." + BODY);

    assertThat(StripeSignatures.verify(SignatureHeader.parse(header), latin1, KEY, NOW))
        .isEqualTo(MISMATCH);
  }

  @ParameterizedTest
  @CsvSource({
    "0, VALID",
    "300, VALID",
    "-300, VALID",
    "301, OUTSIDE_TOLERANCE",
    "-301, OUTSIDE_TOLERANCE",
    "86400, OUTSIDE_TOLERANCE"
  })
  void aSignatureIsGoodForFiveMinutesEitherSideOfNow(
      long secondsAfterSigning, WebhookSignatures.Verdict verdict) {
    assertThat(
            verify(
                WebhookSigning.header(SECRET, T, BODY), BODY, NOW.plusSeconds(secondsAfterSigning)))
        .isEqualTo(verdict);
  }

  @Test
  void aForgedStaleSignatureIsAMismatchNotAStaleOne() {
    assertThat(verify(WebhookSigning.header("whsec_other", T - 3600, BODY), BODY, NOW))
        .isEqualTo(MISMATCH);
    assertThat(verify(WebhookSigning.header(SECRET, T - 3600, BODY), BODY, NOW))
        .isEqualTo(OUTSIDE_TOLERANCE);
  }

  private static WebhookSignatures.Verdict verify(String header, String body, Instant now) {
    return StripeSignatures.verify(
        SignatureHeader.parse(header), body.getBytes(StandardCharsets.UTF_8), KEY, now);
  }
}
