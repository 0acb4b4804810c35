package dev.billing.api.input;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import dev.billing.api.errors.ApiProblem;
import dev.billing.api.errors.FieldError;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each of Jackson's read constraints met by the body check: a 400 saying which limit, naming where
 * it was met, never echoing the value. The factory's limits are lower than the application's, so
 * that the string and depth limits are reached at all (see BadInputTest for the application's own).
 */
class JsonReadLimitsTest {
  private static final int MAX_STRING = 100;
  private static final int MAX_NAME = 100;
  private static final int MAX_NUMBER = 50;
  private static final int MAX_DEPTH = 4;
  private static final JsonFactory STRICT =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxStringLength(MAX_STRING)
                  .maxNameLength(MAX_NAME)
                  .maxNumberLength(MAX_NUMBER)
                  .maxNestingDepth(MAX_DEPTH)
                  .build())
          .build();

  static Stream<Arguments> bodies() {
    String secret = "s3cr3t".repeat(20);
    return Stream.of(
        arguments(
            "string",
            "{\"notes\":[\"a\",\"" + secret + "\"]}",
            "notes[1]",
            "notes[1] exceeds the JSON limits: strings of at most " + MAX_STRING + " characters"),
        // The object's current name is still "b" when the next name is refused.
        arguments(
            "field name",
            "{\"a\":{\"b\":1,\"" + secret + "\":2}}",
            "a",
            "a field name in a exceeds the JSON limits: field names of at most "
                + MAX_NAME
                + " characters"),
        arguments(
            "number",
            "{\"a\":[1," + "7".repeat(60) + "]}",
            "a[1]",
            "a[1] exceeds the JSON limits: numbers of at most " + MAX_NUMBER + " digits"),
        arguments(
            "nesting",
            "{\"a\":{\"b\":[[[1]]]}}",
            "a.b[0][0]",
            "a.b[0][0] exceeds the JSON limits: nesting of at most " + MAX_DEPTH + " levels"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bodies")
  void aBodyOverAReadLimitIsA400NamingTheLimit(
      String limit, String json, String field, String message) {
    assertThatThrownBy(() -> JsonBodyCheck.check(STRICT, json.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOfSatisfying(
            ApiProblem.class,
            problem -> {
              assertThat(problem.status()).isEqualTo(400);
              assertThat(problem.toProblem().type()).endsWith("/invalid-request");
              assertThat(problem.errors()).containsExactly(new FieldError(field, message));
              assertThat(problem.toProblem().toString())
                  .doesNotContain("s3cr3t")
                  .doesNotContain("7777777");
            });
  }
}
