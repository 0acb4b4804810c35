package dev.billing.api.openapi;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import com.networknt.schema.oas.OpenApi31;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The OpenAPI description as the tests read it: the served file (or a changed copy of it), its
 * {@code $ref}s resolved, its operations by method and path, and values validated against its
 * schemas as OpenAPI 3.1 reads them (JSON Schema 2020-12 in the OpenAPI dialect, formats asserted).
 */
final class OpenApiDocument {
  static final ObjectMapper JSON =
      new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  /** The id the document is known by to the validator, which never fetches anything. */
  private static final String IRI = "https://billing.dev/openapi.json";

  static final List<String> METHODS =
      List.of("get", "put", "post", "delete", "options", "head", "patch", "trace");

  private final JsonNode root;
  private final JsonSchemaFactory factory;
  private final SchemaValidatorsConfig config =
      SchemaValidatorsConfig.builder().formatAssertionsEnabled(true).locale(Locale.ROOT).build();

  OpenApiDocument(JsonNode root) {
    this.root = root;
    String text = root.toString();
    this.factory =
        JsonSchemaFactory.getInstance(
            SpecVersion.VersionFlag.V202012,
            builder ->
                builder
                    .metaSchema(OpenApi31.getInstance())
                    .defaultMetaSchemaIri(OpenApi31.getInstance().getIri())
                    .schemaLoaders(loaders -> loaders.schemas(Map.of(IRI, text))));
  }

  /** The file the API serves. */
  static OpenApiDocument served() {
    return new OpenApiDocument(read());
  }

  static String text() {
    try (InputStream in = OpenApiDocument.class.getResourceAsStream(OpenApiResource.DOCUMENT)) {
      if (in == null) {
        throw new IllegalStateException("no " + OpenApiResource.DOCUMENT + " on the classpath");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static ObjectNode read() {
    try {
      return (ObjectNode) JSON.readTree(text());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  JsonNode root() {
    return root;
  }

  /** The node a local reference ("#/components/schemas/X") points at; missing when none. */
  JsonNode at(String ref) {
    if (!ref.startsWith("#")) {
      return MissingNode.getInstance();
    }
    return root.at(ref.substring(1));
  }

  /** {@code node} with its {@code $ref}s followed; a reference's siblings only annotate it. */
  JsonNode resolve(JsonNode node) {
    JsonNode at = node;
    for (int hops = 0; at.has("$ref"); hops++) {
      if (hops > 20) {
        throw new IllegalStateException("a $ref loop at " + node);
      }
      at = at(at.get("$ref").asText());
    }
    return at;
  }

  /** Every operation, "GET /v1/..." to its node, in the document's order. */
  Map<String, JsonNode> operations() {
    Map<String, JsonNode> operations = new LinkedHashMap<>();
    root.path("paths")
        .fields()
        .forEachRemaining(
            path ->
                path.getValue()
                    .fields()
                    .forEachRemaining(
                        item -> {
                          if (METHODS.contains(item.getKey())) {
                            operations.put(
                                item.getKey().toUpperCase(Locale.ROOT) + " " + path.getKey(),
                                item.getValue());
                          }
                        }));
    return operations;
  }

  /** The operation, or null when the document has none at this method and path template. */
  JsonNode operation(String method, String template) {
    JsonNode node = root.path("paths").path(template).path(method.toLowerCase(Locale.ROOT));
    return node.isMissingNode() ? null : node;
  }

  /** The operation's parameters (path-level ones included), references resolved. */
  List<JsonNode> parameters(String template, JsonNode operation) {
    List<JsonNode> parameters = new ArrayList<>();
    root.path("paths").path(template).path("parameters").forEach(p -> parameters.add(resolve(p)));
    operation.path("parameters").forEach(p -> parameters.add(resolve(p)));
    return parameters;
  }

  /** The schema of a response's JSON body, or a missing node. */
  JsonNode responseSchema(JsonNode operation, String status) {
    JsonNode response = resolve(operation.path("responses").path(status));
    return response.path("content").path("application/json").path("schema");
  }

  /** The properties of an object schema, through references and a nullable anyOf. */
  JsonNode properties(JsonNode schema) {
    JsonNode resolved = resolve(schema);
    if (resolved.has("properties")) {
      return resolved.get("properties");
    }
    for (JsonNode alternative : resolved.path("anyOf")) {
      JsonNode properties = properties(alternative);
      if (!properties.isMissingNode()) {
        return properties;
      }
    }
    return MissingNode.getInstance();
  }

  /** The JSON types a schema admits ("string", "null", ...), through references and anyOf. */
  Set<String> types(JsonNode schema) {
    JsonNode resolved = resolve(schema);
    Set<String> types = new TreeSet<>();
    JsonNode type = resolved.path("type");
    if (type.isTextual()) {
      types.add(type.asText());
    }
    type.forEach(t -> types.add(t.asText()));
    for (String combinator : List.of("anyOf", "oneOf")) {
      resolved.path(combinator).forEach(alternative -> types.addAll(types(alternative)));
    }
    return types;
  }

  /**
   * Violations of {@code schema} (a schema object of this document, which may refer to its
   * components) by {@code value}, each prefixed with {@code where}.
   */
  List<String> validate(JsonNode schema, JsonNode value, String where) {
    Set<ValidationMessage> messages;
    try {
      messages = compile(schema).validate(value);
    } catch (RuntimeException e) {
      // A schema that does not compile (a reference that does not resolve) says so, not throws.
      return List.of(where + ": the schema cannot be used: " + e.getMessage());
    }
    return messages.stream().map(m -> where + ": " + m.getMessage()).sorted().toList();
  }

  /** The schema compiled by the validator; throws when it cannot be. */
  JsonSchema compile(JsonNode schema) {
    JsonNode absolute = absolute(schema.deepCopy());
    JsonSchema compiled = factory.getSchema(absolute, config);
    compiled.initializeValidators();
    return compiled;
  }

  /** Local references made absolute, so that a schema taken out of the document still resolves. */
  private static JsonNode absolute(JsonNode node) {
    if (node.isObject()) {
      ObjectNode object = (ObjectNode) node;
      JsonNode ref = object.get("$ref");
      if (ref != null && ref.isTextual() && ref.asText().startsWith("#")) {
        object.put("$ref", IRI + ref.asText());
      }
      for (Iterator<JsonNode> values = object.elements(); values.hasNext(); ) {
        absolute(values.next());
      }
    } else if (node.isArray()) {
      node.forEach(OpenApiDocument::absolute);
    }
    return node;
  }
}
