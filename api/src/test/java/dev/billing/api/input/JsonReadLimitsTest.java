package dev.billing.api.input;

import static dev.billing.api.support.ApiTestSupport.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.ApiConfiguration;
import dev.billing.api.support.ApiTestSupport;
import dev.billing.api.support.JsonLimitsProbe;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each of Jackson's read constraints met by the body check: a 400 saying which limit, naming where it
 * was met, never echoing the value. The probe's limits are lower than the application's, so that the
 * string and depth limits are reached at all (see BadInputTest for the application's own).
 */
class JsonReadLimitsTest {
  static final ApiTestSupport API = ApiTestSupport.start();

  @RegisterExtension
  static final DropwizardAppExtension<ApiConfiguration> APP = API.extension();

  static Stream<Arguments> bodies() {
    String secret = "s3cr3t".repeat(20);
    return Stream.of(
        arguments("string", "{\"notes\":[\"a\",\"" + secret + "\"]}", "notes[1]",
            "notes[1] exceeds the JSON limits: strings of at most " + JsonLimitsProbe.MAX_STRING + " characters"),
        // The object's current name is still "b" when the next name is refused.
        arguments("field name", "{\"a\":{\"b\":1,\"" + secret + "\":2}}", "a",
            "a field name in a exceeds the JSON limits: field names of at most " + JsonLimitsProbe.MAX_NAME
                + " characters"),
        arguments("number", "{\"a\":[1," + "7".repeat(60) + "]}", "a[1]",
            "a[1] exceeds the JSON limits: numbers of at most " + JsonLimitsProbe.MAX_NUMBER + " digits"),
        arguments("nesting", "{\"a\":{\"b\":[[[1]]]}}", "a.b[0][0]",
            "a.b[0][0] exceeds the JSON limits: nesting of at most " + JsonLimitsProbe.MAX_DEPTH + " levels"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bodies")
  void aBodyOverAReadLimitIsA400NamingTheLimit(String limit, String json, String field, String message) {
    JsonNode problem = assertProblem(API.postJson("/test/json-limits/checked", json, null), 400);

    assertThat(problem.get("type").asText()).isEqualTo("https://billing.dev/problems/invalid-request");
    assertThat(problem.get("errors")).as("%s", problem).hasSize(1);
    assertThat(problem.get("errors").get(0).get("field").asText()).isEqualTo(field);
    assertThat(problem.get("errors").get(0).get("message").asText()).isEqualTo(message);
    assertThat(problem.toString()).doesNotContain("s3cr3t").doesNotContain("7777777");
  }
}
