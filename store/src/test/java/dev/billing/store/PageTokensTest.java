package dev.billing.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class PageTokensTest {
  private static final String SCOPE = "billing|ACC#a-1|REC#";
  private static final Map<String, AttributeValue> KEY =
      Map.of(
          "PK", AttributeValue.fromS("ACC#a-1"),
          "SK", AttributeValue.fromS("REC#2026-03-15T08:30:00.000Z#SKU#SKU-PRO#s-1#2"));

  private final PageTokens tokens = new PageTokens(Fixtures.KEY);

  @Test
  void roundTripsTheLastEvaluatedKeyOfItsOwnQuery() {
    String token = tokens.encode(SCOPE, KEY);

    assertThat(token).matches("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{43}");
    assertThat(tokens.decode(SCOPE, token)).isEqualTo(KEY);
  }

  /** Tokens already handed out must stay valid: the encoding and its HMAC are pinned. */
  @Test
  void encodesAndSignsAsBefore() {
    // Map.of's order varies from one JVM run to the next; the pinned token has PK first.
    Map<String, AttributeValue> ordered = new java.util.LinkedHashMap<>();
    ordered.put("PK", KEY.get("PK"));
    ordered.put("SK", KEY.get("SK"));
    assertThat(tokens.encode(SCOPE, ordered)).isEqualTo(PINNED_TOKEN);
    assertThat(tokens.decode(SCOPE, PINNED_TOKEN)).isEqualTo(KEY);
  }

  // The HMAC checked with Python's hmac module.
  private static final String PINNED_TOKEN =
      "eyJxIjoiYmlsbGluZ3xBQ0MjYS0xfFJFQyMiLCJrIjp7IlBLIjoi"
          + "QUNDI2EtMSIsIlNLIjoiUkVDIzIwMjYtMDMtMTVUMDg6MzA6MDAuMDAwWiNTS1UjU0tVLVBSTyNzLTEjMiJ9fQ"
          + ".JFfoCcCp89a_8hPl7cgDdgrlrXm77SH5kBgtdWXpDV8";

  @Test
  void noKeyMeansNoTokenAndNoTokenMeansFirstPage() {
    assertThat(tokens.encode(SCOPE, null)).isNull();
    assertThat(tokens.encode(SCOPE, Map.of())).isNull();
    assertThat(tokens.decode(SCOPE, null)).isNull();
  }

  @Test
  void rejectsATokenOfAnotherQuery() {
    String token = tokens.encode("billing|ACC#a-2|REC#", KEY);

    assertThatThrownBy(() -> tokens.decode(SCOPE, token))
        .isExactlyInstanceOf(InvalidPageTokenException.class)
        .hasMessage("page token belongs to another query");
  }

  @Test
  void rejectsAPayloadChangedUnderTheOriginalSignature() {
    String token = tokens.encode(SCOPE, KEY);
    String signature = token.substring(token.indexOf('.') + 1);
    String payload =
        new String(decode(token.substring(0, token.indexOf('.'))), StandardCharsets.UTF_8);
    String steered = payload.replace("ACC#a-1", "ACC#someone-else");
    assertThat(steered).isNotEqualTo(payload);

    assertInvalid(encode(steered.getBytes(StandardCharsets.UTF_8)) + "." + signature);
  }

  @Test
  void rejectsATokenSignedWithAnotherKey() {
    PageTokens other =
        new PageTokens("another-key-of-at-least-32-bytes".getBytes(StandardCharsets.US_ASCII));

    assertInvalid(other.encode(SCOPE, KEY));
  }

  @Test
  void rejectsTruncatedTokens() {
    String token = tokens.encode(SCOPE, KEY);

    assertInvalid(token.substring(0, token.length() - 1));
    assertInvalid(token.substring(0, token.indexOf('.')));
    assertInvalid(token.substring(0, token.indexOf('.') + 1));
    assertInvalid(token.substring(3));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", ".", "..", "abc", "a.b.c", "%%%.***", "eyJ9.", "null", "{\"q\":1}"})
  void rejectsGarbage(String garbage) {
    assertInvalid(garbage);
  }

  @Test
  void rejectsAnOverlongToken() {
    assertInvalid("A".repeat(5000) + "." + "B".repeat(43));
  }

  /** Even with a valid signature (a leaked key), a malformed payload is an invalid token. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "not json",
        "[]",
        "{}",
        "{\"q\":\"billing|ACC#a-1|REC#\"}",
        "{\"q\":\"billing|ACC#a-1|REC#\",\"k\":{}}",
        "{\"q\":\"billing|ACC#a-1|REC#\",\"k\":[\"PK\"]}",
        "{\"q\":\"billing|ACC#a-1|REC#\",\"k\":{\"PK\":1}}",
        "{\"q\":\"billing|ACC#a-1|REC#\",\"k\":{\"PK\":{\"S\":\"x\"}}}"
      })
  void rejectsSignedButMalformedPayloads(String payload) {
    byte[] bytes = payload.getBytes(StandardCharsets.UTF_8);

    assertInvalid(encode(bytes) + "." + encode(hmac(bytes)));
  }

  @Test
  void aSignedWellFormedPayloadIsAccepted() {
    // Guards the test above: the same construction with a valid payload passes.
    byte[] bytes =
        "{\"q\":\"billing|ACC#a-1|REC#\",\"k\":{\"PK\":\"ACC#a-1\"}}"
            .getBytes(StandardCharsets.UTF_8);

    assertThat(tokens.decode(SCOPE, encode(bytes) + "." + encode(hmac(bytes))))
        .isEqualTo(Map.of("PK", AttributeValue.fromS("ACC#a-1")));
  }

  private void assertInvalid(String token) {
    assertThatThrownBy(() -> tokens.decode(SCOPE, token))
        .isExactlyInstanceOf(InvalidPageTokenException.class);
  }

  private static byte[] hmac(byte[] payload) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(Fixtures.KEY, "HmacSHA256"));
      return mac.doFinal(payload);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static String encode(byte[] bytes) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  private static byte[] decode(String text) {
    return Base64.getUrlDecoder().decode(text);
  }
}
