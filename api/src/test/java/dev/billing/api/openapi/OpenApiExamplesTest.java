package dev.billing.api.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.api.openapi.DocExamples.Example;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The documentation's curl examples (README.md's walk-through, docs/api.md and the rest of docs/)
 * call operations the OpenAPI description has, with bodies and query values its schemas accept, and
 * the answers they show fit its response schemas. The last tests feed made-up examples to check
 * that a wrong one is reported.
 */
class OpenApiExamplesTest {
  private static final OpenApiDocument DOC = OpenApiDocument.served();

  @Test
  void theDocumentationsExamplesFitTheDocument() {
    List<Example> examples = DocExamples.all();

    // The parsing found what the documentation shows, so an empty result below means something.
    assertThat(examples)
        .anySatisfy(
            e -> {
              assertThat(e.source()).isEqualTo("README.md");
              assertThat(e.path()).isEqualTo("/v1/accounts/acc-1/subscriptions");
              assertThat(e.body()).contains("\"paymentMethod\":\"pm_card_visa\"");
              assertThat(e.answer()).isNotNull();
              assertThat(e.answer().status()).isEqualTo(201);
              assertThat(e.answer().shown().path("nextPaymentDate").asText())
                  .isEqualTo("2026-11-30");
            })
        .anySatisfy(
            e -> {
              assertThat(e.source()).isEqualTo("docs/api.md");
              assertThat(e.path()).endsWith("/pause");
              assertThat(e.answer()).isNotNull();
              assertThat(e.answer().shown().path("pause").path("resumesOn").asText())
                  .isEqualTo("2027-02-28");
            });
    assertThat(examples.stream().filter(e -> e.body() != null)).hasSizeGreaterThanOrEqualTo(8);
    assertThat(examples.stream().filter(e -> e.answer() != null)).hasSizeGreaterThanOrEqualTo(5);

    assertThat(DocExampleCheck.all(DOC, examples)).isEmpty();
  }

  @Test
  void aBodyTheSchemaRefusesIsReported() {
    List<String> problems =
        check(
            "curl -s -X POST localhost:8080/v1/accounts/acc-1/subscriptions -H \"$AUTH\" \\",
            "  -d '{\"sku\":\"plus\",\"amount\":9.99,\"currency\":\"USD\",\"email\":\"a@example.com\",",
            "       \"paymentMethod\":\"pm_card_visa\",\"colour\":\"red\"}'");

    assertThat(problems)
        .anySatisfy(
            p -> assertThat(p).startsWith("api.md:2 POST ").contains("body").contains("amount"))
        .anySatisfy(p -> assertThat(p).contains("colour"));
  }

  @Test
  void anAnswerWithAFieldTheSchemaLacksOrAValueItRefusesIsReported() {
    List<String> problems =
        check(
            "S=localhost:8080/v1/accounts/acc-1/subscriptions/sub_…",
            "curl -s -X POST $S/resume -H \"$AUTH\"",
            "# 200 {\"status\":\"RESUMED\",\"pausedDays\":3, …}");

    assertThat(problems)
        .anySatisfy(p -> assertThat(p).contains("answer.status"))
        .contains(
            "api.md:3 POST /v1/accounts/acc-1/subscriptions/sub_…/resume answer: pausedDays is not"
                + " a field of this answer");
  }

  @Test
  void anUnknownOperationStatusOrQueryParameterIsReported() {
    assertThat(check("curl -s -X DELETE localhost:8080/v1/api-keys/3f9a0c1b2d4e5f60"))
        .containsExactly(
            "api.md:2 DELETE /v1/api-keys/3f9a0c1b2d4e5f60: no such operation in the document");
    assertThat(check("curl -s 'localhost:8080/v1/billing/due-payments?date=2026-12-31&day=4'"))
        .containsExactly(
            "api.md:2 GET /v1/billing/due-payments: query parameter day is not in the document");
    assertThat(check("curl -s 'localhost:8080/v1/billing/due-payments?date=31.12.2026'"))
        .anySatisfy(p -> assertThat(p).startsWith("api.md:2 GET /v1/billing/due-payments ?date"));
    assertThat(
            check(
                "curl -s localhost:8080/v1/dev/clock",
                "# 201 {\"now\":\"2026-11-21T20:15:03.120Z\"}"))
        .containsExactly("api.md:2 GET /v1/dev/clock: no 201 answer in the document");
  }

  @Test
  void aShownAnswerReadsWithItsPlaceholders() {
    assertThat(DocExamples.lenient("{…,\"a\":{\"b\":1}, …}").toString())
        .isEqualTo("{\"…0\":\"…\",\"a\":{\"b\":1},\"…1\":\"…\"}");
    assertThat(DocExamples.lenient("{\"a\":\"x_…\",\"b\":…}").toString())
        .isEqualTo("{\"a\":\"x_…\",\"b\":\"…\"}");
  }

  /** The problems of a bash block made of these lines, in a file called api.md. */
  private static List<String> check(String... lines) {
    List<String> block = new ArrayList<>();
    block.add("```bash");
    block.addAll(List.of(lines));
    block.add("```");
    return DocExampleCheck.all(DOC, DocExamples.of("api.md", block));
  }
}
