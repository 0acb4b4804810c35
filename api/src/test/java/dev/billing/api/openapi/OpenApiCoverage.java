package dev.billing.api.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.activities.views.SubscriptionView;
import dev.billing.api.auth.keys.ApiKeyResource;
import dev.billing.api.constraints.Required;
import dev.billing.api.endpoints.WebhookEndpointResource;
import dev.billing.api.errors.Problem;
import dev.billing.api.openapi.RegisteredOperations.Operation;
import dev.billing.api.ops.StartedReconciliationView;
import dev.billing.api.resources.ChangeStillRunningMapper;
import dev.billing.api.resources.SubscriptionResource;
import dev.billing.api.views.PageView;
import dev.billing.api.webhooks.WebhookReceipt;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.core.Response;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the OpenAPI description lacks, or says wrongly, about the registered resource methods, each
 * gap a sentence naming the operation. Checked from the code: every method and path, every path,
 * query and header parameter, the body and its fields, who may call it (auth.AccessFilter's rules),
 * the statuses its parameters, body, access rule and return type imply and those it raises in its
 * own class ({@link ThrownStatuses}), and the fields and JSON types of its bodies (records read by
 * reflection). The other direction too: an operation the document describes that nothing serves,
 * other than those marked x-dev-stack-only.
 */
final class OpenApiCoverage {

  /**
   * What methods answering a {@code Response} send, by status: reflection cannot see it, so it is
   * listed here, and a new such method fails the check until it is.
   */
  static final Map<String, Map<String, Type>> RESPONSE_BODIES =
      Map.of(
          "POST /v1/accounts/{accountId}/subscriptions",
          Map.of(
              "200", SubscriptionView.class,
              "201", SubscriptionView.class,
              "202", SubscriptionResource.AcceptedView.class),
          "POST /v1/ops/reconciliations",
          Map.of("202", StartedReconciliationView.class),
          "POST /v1/api-keys",
          Map.of("201", ApiKeyResource.CreatedApiKeyView.class),
          "POST /v1/webhook-endpoints",
          Map.of("201", WebhookEndpointResource.CreatedEndpointView.class),
          "DELETE /v1/webhook-endpoints/{endpointId}",
          Map.of(),
          "POST /v1/webhooks/{provider}",
          Map.of("200", WebhookReceipt.class),
          "POST /v1/events/{eventId}/redeliver",
          Map.of("202", dev.billing.api.events.EventResource.RedeliveryView.class),
          "GET " + OpenApiResource.PATH,
          Map.of());

  private final OpenApiDocument doc;
  private final List<String> gaps = new ArrayList<>();

  private OpenApiCoverage(OpenApiDocument doc) {
    this.doc = doc;
  }

  static List<String> gaps(OpenApiDocument doc, List<Operation> operations) {
    OpenApiCoverage coverage = new OpenApiCoverage(doc);
    coverage.check(operations);
    return List.copyOf(coverage.gaps);
  }

  private void check(List<Operation> operations) {
    Set<String> served = new HashSet<>();
    for (Operation op : operations) {
      served.add(op.toString());
      JsonNode operation = doc.operation(op.method(), op.template());
      if (operation == null) {
        gaps.add(op + ": not in the document");
        continue;
      }
      parameters(op, operation);
      body(op, operation);
      access(op, operation);
      statuses(op, operation);
      responseBodies(op, operation);
    }
    doc.operations()
        .forEach(
            (key, operation) -> {
              boolean dev = operation.path("x-dev-stack-only").asBoolean(false);
              if (!served.contains(key) && !dev) {
                gaps.add(key + ": in the document, but no registered resource serves it");
              }
              if (dev != key.contains(" /v1/dev/")) {
                gaps.add(key + ": x-dev-stack-only must mark exactly the /v1/dev endpoints");
              }
            });
    matches("Problem", doc.root().at("/components/schemas/Problem"), Problem.class, true);
  }

  private void parameters(Operation op, JsonNode operation) {
    List<JsonNode> declared = doc.parameters(op.template(), operation);
    Map<String, List<String>> read =
        Map.of("path", op.pathParams(), "query", op.queryParams(), "header", op.headerParams());
    read.forEach(
        (in, names) -> {
          for (String name : names) {
            if (declared.stream().noneMatch(p -> is(p, in, name))) {
              gaps.add(op + ": " + in + " parameter " + name + " is not in the document");
            }
          }
        });
    for (JsonNode parameter : declared) {
      String in = parameter.path("in").asText();
      String name = parameter.path("name").asText();
      // Headers may be read without @HeaderParam (the webhooks' signature headers are).
      if ((in.equals("path") || in.equals("query")) && !read.get(in).contains(name)) {
        gaps.add(op + ": the document has " + in + " parameter " + name + ", the method no such");
      }
    }
  }

  private static boolean is(JsonNode parameter, String in, String name) {
    return parameter.path("in").asText().equals(in)
        && (in.equals("header")
            ? parameter.path("name").asText().equalsIgnoreCase(name)
            : parameter.path("name").asText().equals(name));
  }

  private void body(Operation op, JsonNode operation) {
    JsonNode body = doc.resolve(operation.path("requestBody"));
    if (op.entity() == null) {
      if (!body.isMissingNode()) {
        gaps.add(op + ": the document has a request body, the method reads none");
      }
      return;
    }
    if (body.isMissingNode()) {
      gaps.add(op + ": the request body is not in the document");
      return;
    }
    if (op.entity() instanceof Class<?> type && type.isRecord()) {
      JsonNode schema = body.path("content").path("application/json").path("schema");
      if (schema.isMissingNode()) {
        gaps.add(op + ": no application/json schema for the request body");
        return;
      }
      matches(op + " request body", schema, type, false);
      if (!doc.resolve(schema).path("additionalProperties").isBoolean()
          || doc.resolve(schema).path("additionalProperties").asBoolean()) {
        gaps.add(op + " request body: additionalProperties must be false (unknown fields are 400)");
      }
    }
  }

  private void access(Operation op, JsonNode operation) {
    String access = op.access();
    String documented = operation.path("x-access").asText();
    if (!access.equals(documented)) {
      gaps.add(
          op + ": x-access is \"" + documented + "\", the access rules say \"" + access + "\"");
    }
    JsonNode security = operation.path("security");
    switch (access) {
      case "public", "webhook-signature" -> {
        if (!security.isArray() || !security.isEmpty()) {
          gaps.add(op + ": security must be [] (no credential is asked for)");
        }
      }
      case "operator" -> {
        boolean operatorRole = security.isArray() && !security.isEmpty();
        for (JsonNode requirement : security) {
          for (JsonNode roles : requirement) {
            operatorRole &= roles.size() == 1 && roles.get(0).asText().equals("operator");
          }
        }
        if (!operatorRole) {
          gaps.add(op + ": security must ask every scheme for the operator role");
        }
      }
      default -> {
        if (!security.isMissingNode()) {
          gaps.add(op + ": security must be the document's default (any role)");
        }
      }
    }
  }

  private void statuses(Operation op, JsonNode operation) {
    JsonNode responses = operation.path("responses");
    Set<String> expected = new TreeSet<>();
    if (op.credentialed()) {
      expected.add("401"); // no or a bad credential
      expected.add("503"); // the credential's check reaches DynamoDB or the OIDC issuer
    }
    if (op.access().equals("operator")) {
      expected.add("403");
    }
    if (op.accountScoped()) {
      expected.add("404"); // another account's path, to an account credential
    }
    if (op.hasInputs()) {
      expected.add("400");
    }
    // What the method raises itself, from its source.
    expected.addAll(ThrownStatuses.of(op.resource(), op.javaMethod().getName()));
    if (op.entity() != null) {
      expected.add("413");
      if (op.consumesJson()) {
        expected.add("415");
      }
    }
    Type returned = op.javaMethod().getGenericReturnType();
    if (returned == void.class) {
      expected.add("204");
    } else if (returned != Response.class) {
      expected.add("200");
    } else {
      List<String> success = new ArrayList<>();
      responses.fieldNames().forEachRemaining(s -> success.add(s));
      if (success.stream().noneMatch(s -> s.startsWith("2"))) {
        gaps.add(op + ": no 2xx response in the document");
      }
    }
    for (String status : expected) {
      if (!responses.has(status)) {
        gaps.add(op + ": no " + status + " response in the document");
      }
    }
  }

  private void responseBodies(Operation op, JsonNode operation) {
    Type returned = op.javaMethod().getGenericReturnType();
    if (returned == Response.class) {
      Map<String, Type> bodies = RESPONSE_BODIES.get(op.toString());
      if (bodies == null) {
        gaps.add(op + ": answers a Response; list its bodies in OpenApiCoverage.RESPONSE_BODIES");
        return;
      }
      bodies.forEach((status, type) -> responseBody(op, operation, status, type));
    } else if (returned != void.class) {
      responseBody(op, operation, "200", returned);
    }
    if (operation.path("responses").has("202") && !RESPONSE_BODIES.containsKey(op.toString())) {
      responseBody(op, operation, "202", ChangeStillRunningMapper.ChangeAcceptedView.class);
    }
  }

  private void responseBody(Operation op, JsonNode operation, String status, Type type) {
    JsonNode schema = doc.responseSchema(operation, status);
    if (schema.isMissingNode()) {
      gaps.add(op + ": no application/json body for " + status + " in the document");
      return;
    }
    matches(op + " " + status, schema, type, true);
  }

  /**
   * Whether {@code schema} describes values of {@code type}: the same fields, the JSON type of
   * each, null only where Java allows it; an answer's fields all required (every field is sent,
   * null or not), a request's required where its constraints require them.
   */
  private void matches(String where, JsonNode schema, Type type, boolean answer) {
    Class<?> raw = raw(type);
    Set<String> types = doc.types(schema);
    String expected = jsonType(raw);
    if (!types.contains(expected)) {
      gaps.add(where + ": is " + types + ", " + raw.getSimpleName() + " is " + expected);
    }
    if (raw.isPrimitive() && types.contains("null")) {
      gaps.add(where + ": may be null, " + raw.getSimpleName() + " never is");
    }
    if (!answer && types.contains("null")) {
      gaps.add(where + ": a request value is never null (the API refuses nulls)");
    }
    if (raw == List.class) {
      matches(where + "[]", doc.resolve(itemsOf(schema)), argument(type), answer);
    } else if (raw == PageView.class) {
      JsonNode properties = doc.properties(schema);
      fields(where, properties, List.of("items", "nextPageToken"));
      matches(where + ".items[]", itemsOf(properties.path("items")), argument(type), answer);
    } else if (raw.isRecord()) {
      recordFields(where, schema, raw, answer);
    }
  }

  private void recordFields(String where, JsonNode schema, Class<?> type, boolean answer) {
    JsonNode properties = doc.properties(schema);
    List<String> names = new ArrayList<>();
    for (RecordComponent component : type.getRecordComponents()) {
      names.add(component.getName());
    }
    fields(where, properties, names);
    JsonNode object = objectSchema(schema);
    Set<String> required = new LinkedHashSet<>();
    object.path("required").forEach(r -> required.add(r.asText()));
    for (RecordComponent component : type.getRecordComponents()) {
      String name = component.getName();
      if (!properties.has(name)) {
        continue;
      }
      if (answer && !required.contains(name)) {
        gaps.add(where + ": " + name + " is always sent, so it must be required");
      }
      if (!answer && requiredByConstraint(type, name) && !required.contains(name)) {
        gaps.add(where + ": " + name + " is required by its constraint, not in the document");
      }
      matches(where + "." + name, properties.get(name), component.getGenericType(), answer);
    }
  }

  private void fields(String where, JsonNode properties, List<String> names) {
    for (String name : names) {
      if (!properties.has(name)) {
        gaps.add(where + ": property " + name + " is not in the document");
      }
    }
    properties
        .fieldNames()
        .forEachRemaining(
            name -> {
              if (!names.contains(name)) {
                gaps.add(where + ": the document has property " + name + ", the type has not");
              }
            });
  }

  private JsonNode objectSchema(JsonNode schema) {
    JsonNode resolved = doc.resolve(schema);
    if (resolved.has("properties")) {
      return resolved;
    }
    for (JsonNode alternative : resolved.path("anyOf")) {
      JsonNode object = objectSchema(alternative);
      if (object.has("properties")) {
        return object;
      }
    }
    return resolved;
  }

  private JsonNode itemsOf(JsonNode schema) {
    return doc.resolve(schema).path("items");
  }

  private static boolean requiredByConstraint(Class<?> type, String name) {
    try {
      var field = type.getDeclaredField(name);
      return field.isAnnotationPresent(Required.class) || field.isAnnotationPresent(NotNull.class);
    } catch (NoSuchFieldException e) {
      return false;
    }
  }

  private static String jsonType(Class<?> raw) {
    if (raw == String.class) {
      return "string";
    }
    if (raw == int.class || raw == long.class || raw == Integer.class || raw == Long.class) {
      return "integer";
    }
    if (raw == boolean.class || raw == Boolean.class) {
      return "boolean";
    }
    if (raw == List.class) {
      return "array";
    }
    return "object";
  }

  private static Class<?> raw(Type type) {
    if (type instanceof Class<?> c) {
      return c;
    }
    if (type instanceof ParameterizedType p) {
      return (Class<?>) p.getRawType();
    }
    throw new IllegalArgumentException("cannot read " + type);
  }

  private static Type argument(Type type) {
    if (type instanceof ParameterizedType p) {
      return p.getActualTypeArguments()[0];
    }
    throw new IllegalArgumentException(type + " has no type argument");
  }
}
