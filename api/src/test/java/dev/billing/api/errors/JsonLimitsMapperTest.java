package dev.billing.api.errors;

import static dev.billing.api.support.ApiTestSupport.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.ApiConfiguration;
import dev.billing.api.support.ApiTestSupport;
import dev.billing.api.support.JsonLimitsProbe;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** JSON refused for Jackson's limits rather than its syntax or shape: a 400 that never echoes the value. */
class JsonLimitsMapperTest {
  static final ApiTestSupport API = ApiTestSupport.start();

  @RegisterExtension
  static final DropwizardAppExtension<ApiConfiguration> APP = API.extension();

  @Test
  void aBodyOverTheLimitsIsA400() {
    String secret = "s3cr3t".repeat(JsonLimitsProbe.MAX_STRING);

    JsonNode problem = assertProblem(
        API.postJson("/test/json-limits/strict", "{\"note\":\"" + secret + "\"}", null), 400);

    assertThat(problem.get("type").asText()).isEqualTo("https://billing.dev/problems/invalid-request");
    // Jackson's constraint exceptions do not carry their parser, so the body as a whole is named.
    assertThat(problem.get("detail").asText()).isEqualTo("the request body exceeds the JSON limits of this API");
    assertThat(problem.get("errors")).hasSize(1);
    assertThat(problem.get("errors").get(0).get("field").isNull()).isTrue();
    assertThat(problem.toString()).doesNotContain("s3cr3t");
  }

  @Test
  void aNumberOutOfItsTypesRangeIsA400() {
    JsonNode problem = assertProblem(API.postJson("/test/json-limits/integer", "99999999999999999999", null), 400);

    assertThat(problem.get("detail").asText()).isEqualTo("a number is out of range");
    assertThat(problem.get("errors").get(0).get("field").isNull()).isTrue();
  }
}
