package dev.billing.api.webhooks;

import static dev.billing.api.webhooks.WebhookSignatures.Verdict.MISMATCH;
import static dev.billing.api.webhooks.WebhookSignatures.Verdict.OUTSIDE_TOLERANCE;
import static dev.billing.api.webhooks.WebhookSignatures.Verdict.VALID;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WebhookSignaturesTest {
  private static final String SECRET = "whsec_test_secret";
  private static final byte[] KEY = SECRET.getBytes(StandardCharsets.UTF_8);
  private static final long T = 1773144000L; // 2026-03-10T12:00:00Z
  private static final Instant NOW = Instant.ofEpochSecond(T);
  private static final String BODY = "{\"id\":\"evt_1\",\"amount\":\"9.99\"}";

  @Test
  void acceptsTheDocumentedSchemeAndAnyOfSeveralV1Signatures() {
    String valid = WebhookSigning.hmacHex(SECRET, T + "." + BODY);

    assertThat(verify("t=" + T + ",v1=" + valid, BODY, NOW)).isEqualTo(VALID);
    assertThat(verify("t=" + T + ",v1=" + "ab".repeat(32) + ",v1=" + valid, BODY, NOW))
        .isEqualTo(VALID);
    assertThat(
            verify(
                " t=" + T + " , v0=" + "cd".repeat(32) + ", v1=" + valid.toUpperCase(), BODY, NOW))
        .isEqualTo(VALID);
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

  @Test
  void parsesTheHeaderOrSaysWhatIsWrong() {
    assertThat(SignatureHeader.parse("t=12,v1=aa,v0=bb,v1=cc"))
        .isEqualTo(new SignatureHeader(12, List.of("aa", "cc")));
    assertThatThrownBy(() -> SignatureHeader.parse("v1=aa")).hasMessage("has no timestamp (t)");
    assertThatThrownBy(() -> SignatureHeader.parse("t=12,v0=aa")).hasMessage("has no v1 signature");
    assertThatThrownBy(() -> SignatureHeader.parse("t=12,t=13,v1=aa"))
        .hasMessage("has more than one timestamp (t)");
    assertThatThrownBy(() -> SignatureHeader.parse("t=-12,v1=aa"))
        .hasMessage("timestamp (t) must be Unix seconds");
    assertThatThrownBy(() -> SignatureHeader.parse("sha256=aa")).hasMessage("has no timestamp (t)");
    assertThatThrownBy(() -> SignatureHeader.parse("garbage"))
        .hasMessage("must be a comma-separated list of key=value items");
    assertThatThrownBy(() -> SignatureHeader.parse("t=1," + "v1=aa,".repeat(200)))
        .hasMessage("is longer than 1024 characters");
  }

  private static WebhookSignatures.Verdict verify(String header, String body, Instant now) {
    return WebhookSignatures.verify(
        SignatureHeader.parse(header), body.getBytes(StandardCharsets.UTF_8), KEY, now);
  }
}
