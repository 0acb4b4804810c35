package dev.billing.api.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/**
 * The document is a valid OpenAPI 3.1 description ({@link OpenApiStructure}) in the file's one
 * layout ({@link JsonLayout}). The other tests break one thing in a copy and check it is reported.
 */
class OpenApiDocumentTest {

  @Test
  void theDocumentIsValidOpenApi31() {
    assertThat(OpenApiStructure.problems(OpenApiDocument.served())).isEmpty();
  }

  @Test
  void theFileKeepsItsLayout() throws Exception {
    String text = OpenApiDocument.text();

    assertThat(text).isEqualTo(JsonLayout.render(OpenApiDocument.JSON.readTree(text)));
  }

  @Test
  void aLayoutChangeIsSeen() throws Exception {
    String fourSpaces = OpenApiDocument.text().replace("\n  \"info\"", "\n    \"info\"");

    assertThat(fourSpaces)
        .isNotEqualTo(JsonLayout.render(OpenApiDocument.JSON.readTree(fourSpaces)));
  }

  @Test
  void aSchemaThatIsNotJsonSchemaIsReported() {
    ObjectNode copy = OpenApiDocument.read();
    ((ObjectNode) copy.at("/components/schemas/PauseView/properties/since"))
        .removeAll()
        .put("type", "date");

    assertThat(OpenApiStructure.problems(new OpenApiDocument(copy)))
        .anySatisfy(p -> assertThat(p).startsWith("/components/schemas/PauseView"));
  }

  @Test
  void aReferenceThatDoesNotResolveIsReported() {
    ObjectNode copy = OpenApiDocument.read();
    ((ObjectNode) copy.at("/components/schemas/PauseView/properties/since"))
        .put("$ref", "#/components/schemas/Day");

    assertThat(OpenApiStructure.problems(new OpenApiDocument(copy)))
        .anySatisfy(p -> assertThat(p).contains("$ref #/components/schemas/Day does not resolve"));
  }

  @Test
  void anUndeclaredPathParameterIsReported() {
    ObjectNode copy = OpenApiDocument.read();
    String path = "/v1/api-keys/{keyId}";
    ((ArrayNode) copy.get("paths").get(path).get("get").get("parameters")).removeAll();

    assertThat(OpenApiStructure.problems(new OpenApiDocument(copy)))
        .contains("paths " + path + " get: {keyId} is not declared as a path parameter");
  }

  @Test
  void anExampleItsSchemaRefusesIsReported() {
    ObjectNode copy = OpenApiDocument.read();
    String create = "/v1/accounts/{accountId}/subscriptions";
    ObjectNode example =
        (ObjectNode)
            copy.get("paths")
                .get(create)
                .get("post")
                .at("/requestBody/content/application~1json/example");
    example.put("amount", 9.99);

    assertThat(OpenApiStructure.problems(new OpenApiDocument(copy)))
        .anySatisfy(
            p ->
                assertThat(p)
                    .startsWith("paths " + create + " post requestBody application/json example")
                    .contains("amount"));
  }

  @Test
  void anErrorWithAnotherBodyIsReported() {
    ObjectNode copy = OpenApiDocument.read();
    ((ObjectNode) copy.at("/components/responses/NotFound/content"))
        .set(
            "application/json",
            copy.at("/components/responses/NotFound/content/application~1problem+json"));

    assertThat(OpenApiStructure.problems(new OpenApiDocument(copy)))
        .anySatisfy(
            p ->
                assertThat(p)
                    .endsWith("404: an error is answered as application/problem+json, Problem"));
  }
}
