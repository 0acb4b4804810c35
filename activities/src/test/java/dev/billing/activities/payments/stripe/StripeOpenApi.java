package dev.billing.activities.payments.stripe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonMetaSchema;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.NonValidationKeyword;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Stripe's OpenAPI description (the trimmed test copy in {@code stripe/openapi-trimmed.json}, see
 * its README) as a checker of the WireMock stubs: response bodies against the operation's response
 * schema (errors against {@code error}, an event's {@code data.object} against the schema its
 * {@code object} names), and the adapter's requests (form-encoded bodies and query strings) against
 * the operation's requestBody and parameters, which reject unknown parameters.
 *
 * <p>OpenAPI 3.0 schema objects are validated as JSON Schema draft 4 after one rewrite: Stripe puts
 * {@code nullable: true} next to {@code anyOf}, {@code enum} and {@code type} alike and means "or
 * null" in every case, so each becomes an explicit null alternative.
 */
final class StripeOpenApi {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final ObjectNode root;

  /**
   * Draft 4, with the description's own keys and Stripe's x- extensions read as annotations (their
   * meaning is documentation and SDK generation, not validation).
   */
  private static final JsonMetaSchema OPENAPI_SCHEMA_OBJECT =
      JsonMetaSchema.builder(JsonMetaSchema.getV4())
          .unknownKeywordFactory((name, context) -> new NonValidationKeyword(name))
          .build();

  /** Declared after the constants its constructor uses. */
  static final StripeOpenApi DESCRIPTION = new StripeOpenApi("/stripe/openapi-trimmed.json");

  private final JsonSchemaFactory factory =
      JsonSchemaFactory.getInstance(
          SpecVersion.VersionFlag.V4, builder -> builder.metaSchema(OPENAPI_SCHEMA_OBJECT));
  private final Map<String, JsonSchema> schemas = new ConcurrentHashMap<>();

  private StripeOpenApi(String resource) {
    try (InputStream in = StripeOpenApi.class.getResourceAsStream(resource)) {
      root = (ObjectNode) JSON.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    normalize(root);
    overlay(root);
  }

  /** The API version the copy was taken at. */
  String version() {
    return root.path("info").path("version").asText();
  }

  /**
   * Where the copy is older than the API version stripe-java 33.3.0 speaks (2026-07-29), each
   * difference a stub relies on, applied here rather than edited into the copy.
   */
  private static void overlay(ObjectNode root) {
    // The current description no longer requires a PaymentIntent's amount and currency (intents
    // made by other integrations, e.g. amount_details only); the adapter must cope with both.
    ArrayNode required = (ArrayNode) root.at("/components/schemas/payment_intent/required");
    for (int i = required.size() - 1; i >= 0; i--) {
      String name = required.get(i).asText();
      if (name.equals("amount") || name.equals("currency")) {
        required.remove(i);
      }
    }
  }

  /** Violations of a component schema ("payment_intent", "dispute", ...). */
  List<String> validateObject(String schema, JsonNode value) {
    return validate("/components/schemas/" + schema, value, schema);
  }

  /** Violations of a response Stripe would send for this operation. */
  List<String> validateResponse(String method, String path, int status, String body) {
    Operation op = operation(method, path);
    if (op == null) {
      return List.of(method + " " + path + ": no such operation in the description");
    }
    JsonNode value;
    try {
      value = JSON.readTree(body);
    } catch (IOException e) {
      return List.of(method + " " + path + ": response is not JSON: " + e.getMessage());
    }
    String response = status / 100 == 2 ? "200" : "default";
    String pointer = op.pointer() + "/responses/" + response + "/content/application~1json/schema";
    if (root.at(pointer).isMissingNode()) {
      return List.of(method + " " + path + ": no " + response + " response in the description");
    }
    List<String> errors = new ArrayList<>(validate(pointer, value, method + " " + path));
    // An event carries its object untyped in the description: check it against its own schema.
    List<JsonNode> events = new ArrayList<>();
    if ("event".equals(value.path("object").asText())) {
      events.add(value);
    }
    value
        .path("data")
        .forEach(
            item -> {
              if ("event".equals(item.path("object").asText())) {
                events.add(item);
              }
            });
    for (JsonNode event : events) {
      JsonNode object = event.path("data").path("object");
      String type = object.path("object").asText();
      if (root.at("/components/schemas/" + type).isMissingNode()) {
        errors.add(
            "event "
                + event.path("id").asText()
                + ": object "
                + type
                + " is not in the description");
      } else {
        errors.addAll(
            validate(
                "/components/schemas/" + type,
                object,
                "event " + event.path("id").asText() + " data.object"));
      }
    }
    return errors;
  }

  /** Violations of the adapter's request: query parameters and form-encoded body. */
  List<String> validateRequest(String method, String path, String query, String body) {
    Operation op = operation(method, path);
    if (op == null) {
      return List.of(method + " " + path + ": no such operation in the description");
    }
    List<String> errors = new ArrayList<>();
    ObjectNode params = decode(query);
    JsonNode declared = root.at(op.pointer() + "/parameters");
    for (Iterator<String> names = params.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      int index = -1;
      for (int i = 0; i < declared.size(); i++) {
        if (declared.get(i).path("in").asText().equals("query")
            && declared.get(i).path("name").asText().equals(name)) {
          index = i;
        }
      }
      if (index < 0) {
        errors.add(method + " " + path + ": unknown query parameter " + name);
        continue;
      }
      String pointer = op.pointer() + "/parameters/" + index + "/schema";
      JsonNode value = coerce(params.get(name), root.at(pointer));
      errors.addAll(validate(pointer, value, method + " " + path + " ?" + name));
    }
    String bodyPointer =
        op.pointer() + "/requestBody/content/application~1x-www-form-urlencoded/schema";
    if (body != null && !body.isEmpty()) {
      if (root.at(bodyPointer).isMissingNode()) {
        errors.add(method + " " + path + ": the operation takes no body");
      } else {
        JsonNode form = coerce(decode(body), root.at(bodyPointer));
        errors.addAll(validate(bodyPointer, form, method + " " + path + " body"));
      }
    } else if (root.at(op.pointer() + "/requestBody/required").asBoolean()) {
      errors.add(method + " " + path + ": the body is required");
    }
    return errors;
  }

  private record Operation(String pointer) {}

  private Operation operation(String method, String path) {
    for (Iterator<String> templates = root.path("paths").fieldNames(); templates.hasNext(); ) {
      String template = templates.next();
      String regex = "\\Q" + template.replaceAll("\\{[^}]+}", "\\\\E[^/]+\\\\Q") + "\\E";
      if (Pattern.matches(regex, path)
          && root.path("paths").path(template).has(method.toLowerCase())) {
        return new Operation(
            "/paths/"
                + template.replace("~", "~0").replace("/", "~1")
                + "/"
                + method.toLowerCase());
      }
    }
    return null;
  }

  private List<String> validate(String pointer, JsonNode value, String where) {
    JsonSchema schema =
        schemas.computeIfAbsent(
            pointer,
            p -> {
              ObjectNode wrapper = root.deepCopy();
              wrapper.put("$ref", "#" + p);
              return factory.getSchema(wrapper);
            });
    Set<ValidationMessage> messages = schema.validate(value);
    return messages.stream().map(m -> where + ": " + m.getMessage()).sorted().toList();
  }

  /** OpenAPI 3.0's nullable as Stripe means it, in draft 4 terms. */
  private static void normalize(JsonNode node) {
    if (node.isArray()) {
      node.forEach(StripeOpenApi::normalize);
      return;
    }
    if (!node.isObject()) {
      return;
    }
    ObjectNode object = (ObjectNode) node;
    object.forEach(StripeOpenApi::normalize);
    // Stripe's own formats (unix-time, decimal) are no JSON Schema formats.
    if (object.path("format").isTextual() && object.has("type")) {
      object.remove("format");
    }
    if (!object.path("nullable").isBoolean()) {
      return;
    }
    boolean nullable = object.remove("nullable").asBoolean();
    if (!nullable) {
      return;
    }
    if (object.has("anyOf")) {
      ((ArrayNode) object.get("anyOf")).addObject().put("type", "null");
    }
    if (object.has("enum")) {
      ((ArrayNode) object.get("enum")).addNull();
    }
    if (object.path("type").isTextual()) {
      String type = object.get("type").asText();
      object.putArray("type").add(type).add("null");
    }
  }

  /** Stripe's form encoding ({@code a[b][0]=x}) back into a JSON tree of strings. */
  static ObjectNode decode(String encoded) {
    Map<String, Object> tree = new LinkedHashMap<>();
    if (encoded != null && !encoded.isEmpty()) {
      for (String pair : encoded.split("&")) {
        int eq = pair.indexOf('=');
        String key =
            URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
        String value =
            eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
        List<String> path = new ArrayList<>();
        int bracket = key.indexOf('[');
        path.add(bracket < 0 ? key : key.substring(0, bracket));
        while (bracket >= 0) {
          int close = key.indexOf(']', bracket);
          path.add(key.substring(bracket + 1, close));
          bracket = key.indexOf('[', close);
        }
        put(tree, path, value);
      }
    }
    return (ObjectNode) toNode(tree);
  }

  @SuppressWarnings("unchecked")
  private static void put(Map<String, Object> tree, List<String> path, String value) {
    Map<String, Object> at = tree;
    for (int i = 0; i < path.size() - 1; i++) {
      at = (Map<String, Object>) at.computeIfAbsent(path.get(i), k -> new LinkedHashMap<>());
    }
    at.put(path.get(path.size() - 1), value);
  }

  @SuppressWarnings("unchecked")
  private static JsonNode toNode(Object value) {
    if (value instanceof String s) {
      return NODES.textNode(s);
    }
    Map<String, Object> map = (Map<String, Object>) value;
    if (!map.isEmpty() && map.keySet().stream().allMatch(k -> k.matches("\\d+|"))) {
      ArrayNode array = NODES.arrayNode();
      map.values().forEach(v -> array.add(toNode(v)));
      return array;
    }
    ObjectNode object = NODES.objectNode();
    map.forEach((k, v) -> object.set(k, toNode(v)));
    return object;
  }

  /** Gives form strings the JSON types the schema declares (integers, booleans). */
  private JsonNode coerce(JsonNode value, JsonNode schema) {
    List<JsonNode> alternatives = alternatives(schema);
    if (value.isTextual()) {
      String text = value.asText();
      for (JsonNode alt : alternatives) {
        String type =
            alt.path("type").isArray()
                ? alt.path("type").get(0).asText()
                : alt.path("type").asText();
        if (type.equals("integer") && text.matches("-?\\d+")) {
          return NODES.numberNode(Long.parseLong(text));
        }
        if (type.equals("boolean") && (text.equals("true") || text.equals("false"))) {
          return NODES.booleanNode(Boolean.parseBoolean(text));
        }
      }
      return value;
    }
    if (value.isArray()) {
      ArrayNode out = NODES.arrayNode();
      JsonNode items =
          alternatives.stream()
              .filter(a -> a.has("items"))
              .findFirst()
              .map(a -> a.get("items"))
              .orElse(NODES.objectNode());
      value.forEach(v -> out.add(coerce(v, items)));
      return out;
    }
    ObjectNode out = NODES.objectNode();
    value
        .fields()
        .forEachRemaining(
            field -> {
              JsonNode sub = NODES.objectNode();
              for (JsonNode alt : alternatives) {
                if (alt.path("properties").has(field.getKey())) {
                  sub = alt.path("properties").get(field.getKey());
                  break;
                }
                if (alt.path("additionalProperties").isObject()) {
                  sub = alt.get("additionalProperties");
                }
              }
              out.set(field.getKey(), coerce(field.getValue(), sub));
            });
    return out;
  }

  private List<JsonNode> alternatives(JsonNode schema) {
    JsonNode resolved = resolve(schema);
    List<JsonNode> out = new ArrayList<>();
    out.add(resolved);
    resolved.path("anyOf").forEach(alt -> out.addAll(alternatives(alt)));
    return out;
  }

  private JsonNode resolve(JsonNode schema) {
    JsonNode at = schema;
    while (at.has("$ref")) {
      at = root.at(at.get("$ref").asText().substring(1));
    }
    return at;
  }
}
