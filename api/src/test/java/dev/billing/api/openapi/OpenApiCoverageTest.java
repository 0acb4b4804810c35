package dev.billing.api.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.billing.api.openapi.RegisteredOperations.Operation;
import dev.billing.api.resources.SubscriptionLifecycleResource;
import dev.billing.api.support.OperatorOnlyProbe;
import dev.billing.api.webhooks.WebhookResource;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI description covers every resource method the application registers: path, method,
 * parameters, body, access and the statuses and bodies the code implies (see {@link
 * OpenApiCoverage}). The other tests here change one thing in a copy of the document and check that
 * the gap is named, so that this one cannot pass by checking nothing.
 */
class OpenApiCoverageTest {
  private static List<Operation> operations;

  @BeforeAll
  static void readTheRegisteredResources() {
    operations = RegisteredOperations.of(RegisteredOperations.resourceClasses());
  }

  @Test
  void theDocumentCoversEveryRegisteredResourceMethod() {
    assertThat(operations)
        .extracting(Operation::toString)
        .contains(
            "POST /v1/accounts/{accountId}/subscriptions",
            "POST /v1/webhooks/{provider}",
            "GET /v1/ops/reconciliations/{id}",
            "POST /v1/api-keys/{keyId}/revoke",
            "GET /v1/openapi.json");

    assertThat(OpenApiCoverage.gaps(OpenApiDocument.served(), operations)).isEmpty();
  }

  @Test
  void aMissingPathIsNamed() {
    ObjectNode copy = OpenApiDocument.read();
    ((ObjectNode) copy.get("paths")).remove("/v1/billing/due-reminders");

    assertThat(gaps(copy)).contains("GET /v1/billing/due-reminders: not in the document");
  }

  @Test
  void aMissingMethodIsNamed() {
    ObjectNode copy = OpenApiDocument.read();
    ((ObjectNode) copy.at("/paths/~1v1~1api-keys")).remove("get");

    assertThat(gaps(copy)).contains("GET /v1/api-keys: not in the document");
  }

  @Test
  void aMissingQueryParameterIsNamed() {
    ObjectNode copy = OpenApiDocument.read();
    removeParameter(copy, "/v1/accounts/{accountId}/receipts", "get", "Limit");

    assertThat(gaps(copy))
        .contains(
            "GET /v1/accounts/{accountId}/receipts: query parameter limit is not in the document");
  }

  @Test
  void aMissingHeaderParameterIsNamed() {
    ObjectNode copy = OpenApiDocument.read();
    String cancel = "/v1/accounts/{accountId}/subscriptions/{subscriptionId}/cancel";
    removeParameter(copy, cancel, "post", "IdempotencyKey");

    assertThat(gaps(copy))
        .contains("POST " + cancel + ": header parameter Idempotency-Key is not in the document");
  }

  @Test
  void aMissingPathParameterIsNamed() {
    ObjectNode copy = OpenApiDocument.read();
    String waive =
        "/v1/accounts/{accountId}/subscriptions/{subscriptionId}/periods/{periodId}/waive";
    removeParameter(copy, waive, "post", "PeriodId");

    assertThat(gaps(copy))
        .contains("POST " + waive + ": path parameter periodId is not in the document");
  }

  @Test
  void aMissingStatusIsNamed() {
    ObjectNode copy = OpenApiDocument.read();
    String one = "/v1/accounts/{accountId}/subscriptions/{subscriptionId}";
    ((ObjectNode) operation(copy, one, "get").get("responses")).remove("404");
    ((ObjectNode) operation(copy, "/v1/ops/reconciliations", "get").get("responses")).remove("403");

    assertThat(gaps(copy))
        .contains(
            "GET " + one + ": no 404 response in the document",
            "GET /v1/ops/reconciliations: no 403 response in the document");
  }

  @Test
  void aMissingStatusTheMethodRaisesItselfIsNamed() {
    ObjectNode copy = OpenApiDocument.read();
    String create = "/v1/accounts/{accountId}/subscriptions";
    ((ObjectNode) operation(copy, create, "post").get("responses")).remove("409");
    ((ObjectNode) operation(copy, "/v1/webhooks/{provider}", "post").get("responses"))
        .remove("401");

    assertThat(gaps(copy))
        .contains(
            "POST " + create + ": no 409 response in the document",
            "POST /v1/webhooks/{provider}: no 401 response in the document");
  }

  @Test
  void theStatusesAMethodRaisesAreReadFromItsSource() {
    assertThat(ThrownStatuses.of(WebhookResource.class, "receive"))
        .containsExactly("400", "401", "404", "413", "503");
    assertThat(ThrownStatuses.of(SubscriptionLifecycleResource.class, "refund"))
        .containsExactly("404");
  }

  @Test
  void aMissingOrExtraFieldIsNamed() {
    ObjectNode copy = OpenApiDocument.read();
    ObjectNode subscription =
        (ObjectNode) copy.at("/components/schemas/SubscriptionView/properties");
    subscription.remove("balance");
    ObjectNode plan = (ObjectNode) copy.at("/components/schemas/ChangePlanRequest/properties");
    plan.putObject("prorate").put("type", "boolean");

    assertThat(gaps(copy))
        .contains(
            "GET /v1/accounts/{accountId}/subscriptions/{subscriptionId} 200: property balance is not"
                + " in the document",
            "POST /v1/accounts/{accountId}/subscriptions/{subscriptionId}/plan request body: the"
                + " document has property prorate, the type has not");
  }

  @Test
  void anOperatorOnlyEndpointDocumentedAsOpenToAccountsIsNamed() {
    ObjectNode copy = OpenApiDocument.read();
    String refund =
        "/v1/accounts/{accountId}/subscriptions/{subscriptionId}/periods/{periodId}/refund";
    ObjectNode operation = operation(copy, refund, "post");
    operation.put("x-access", "account-or-operator");
    operation.remove("security");

    assertThat(gaps(copy))
        .contains(
            "POST "
                + refund
                + ": x-access is \"account-or-operator\", the access rules say"
                + " \"operator\"",
            "POST " + refund + ": security must ask every scheme for the operator role");
  }

  @Test
  void aResourceTheDocumentDoesNotKnowIsNamed() {
    List<Operation> probe = RegisteredOperations.of(List.of(OperatorOnlyProbe.class));

    assertThat(OpenApiCoverage.gaps(OpenApiDocument.served(), probe))
        .contains("GET /v1/accounts/{accountId}/test-operator-only: not in the document");
  }

  @Test
  void anOperationNothingServesIsNamed() {
    ObjectNode copy = OpenApiDocument.read();
    ((ObjectNode) copy.get("paths"))
        .set("/v1/billing/due-refunds", copy.at("/paths/~1v1~1billing~1due-payments").deepCopy());

    assertThat(gaps(copy))
        .contains(
            "GET /v1/billing/due-refunds: in the document, but no registered resource serves it");
  }

  private static List<String> gaps(JsonNode document) {
    return OpenApiCoverage.gaps(new OpenApiDocument(document), operations);
  }

  private static ObjectNode operation(ObjectNode document, String path, String method) {
    return (ObjectNode) document.get("paths").get(path).get(method);
  }

  /** Removes the operation's reference to the component parameter {@code component}. */
  private static void removeParameter(
      ObjectNode document, String path, String method, String component) {
    ArrayNode parameters = (ArrayNode) operation(document, path, method).get("parameters");
    String ref = "#/components/parameters/" + component;
    for (int i = 0; i < parameters.size(); i++) {
      if (parameters.get(i).path("$ref").asText().equals(ref)) {
        parameters.remove(i);
        return;
      }
    }
    throw new IllegalArgumentException(path + " has no parameter " + component);
  }
}
