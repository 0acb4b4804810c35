package dev.billing.api.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaId;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What makes the document a valid OpenAPI 3.1 description, checked without the OpenAPI project's
 * own schema (not bundled with the validator): the fields each object allows and requires, path
 * templates and their parameters, references that resolve, security schemes that exist, every
 * schema object valid JSON Schema 2020-12 and compilable in the OpenAPI dialect, every example
 * valid against its schema, and every error answered as application/problem+json.
 */
final class OpenApiStructure {
  private static final Set<String> ROOT =
      Set.of(
          "openapi",
          "info",
          "jsonSchemaDialect",
          "servers",
          "paths",
          "webhooks",
          "components",
          "security",
          "tags",
          "externalDocs");
  private static final Set<String> PATH_ITEM =
      Set.of("$ref", "summary", "description", "servers", "parameters");
  private static final Set<String> OPERATION =
      Set.of(
          "tags",
          "summary",
          "description",
          "externalDocs",
          "operationId",
          "parameters",
          "requestBody",
          "responses",
          "callbacks",
          "deprecated",
          "security",
          "servers");
  private static final Set<String> PARAMETER_IN = Set.of("query", "header", "path", "cookie");
  private static final Pattern STATUS = Pattern.compile("[1-5](?:[0-9]{2}|XX)|default");
  private static final Pattern TEMPLATE_PARAM = Pattern.compile("\\{([^}/]+)}");
  static final String DIALECT = "https://spec.openapis.org/oas/3.1/dialect/base";

  private static final JsonSchema META_SCHEMA =
      JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
          .getSchema(SchemaLocation.of(SchemaId.V202012));

  private final OpenApiDocument doc;
  private final JsonNode root;
  private final List<String> problems = new ArrayList<>();

  private OpenApiStructure(OpenApiDocument doc) {
    this.doc = doc;
    this.root = doc.root();
  }

  static List<String> problems(OpenApiDocument doc) {
    OpenApiStructure structure = new OpenApiStructure(doc);
    structure.check();
    return List.copyOf(structure.problems);
  }

  private void check() {
    if (!root.path("openapi").asText().matches("3\\.1\\.[0-9]+")) {
      problems.add("openapi must be 3.1.x");
    }
    if (!root.path("info").path("title").isTextual()
        || !root.path("info").path("version").isTextual()) {
      problems.add("info needs a title and a version");
    }
    if (root.has("jsonSchemaDialect") && !root.get("jsonSchemaDialect").asText().equals(DIALECT)) {
      problems.add("jsonSchemaDialect must be the OpenAPI base dialect");
    }
    fields("/", root, ROOT);
    references(root, "");
    security("/security", root.path("security"));
    Set<String> tags = new HashSet<>();
    root.path("tags").forEach(tag -> tags.add(tag.path("name").asText()));
    Set<String> operationIds = new HashSet<>();
    root.path("paths")
        .fields()
        .forEachRemaining(path -> pathItem(path.getKey(), path.getValue(), tags, operationIds));
    root.path("components")
        .path("schemas")
        .fields()
        .forEachRemaining(s -> schema("/components/schemas/" + s.getKey(), s.getValue()));
  }

  private void pathItem(String template, JsonNode item, Set<String> tags, Set<String> ids) {
    String where = "paths " + template;
    if (!template.startsWith("/")) {
      problems.add(where + ": a path starts with /");
    }
    Set<String> allowed = new HashSet<>(PATH_ITEM);
    allowed.addAll(OpenApiDocument.METHODS);
    fields(where, item, allowed);
    Set<String> inTemplate = new LinkedHashSet<>();
    Matcher param = TEMPLATE_PARAM.matcher(template);
    while (param.find()) {
      if (!inTemplate.add(param.group(1))) {
        problems.add(where + ": {" + param.group(1) + "} appears twice");
      }
    }
    for (String method : OpenApiDocument.METHODS) {
      if (item.has(method)) {
        operation(where + " " + method, template, item.get(method), inTemplate, tags, ids);
      }
    }
  }

  private void operation(
      String where,
      String template,
      JsonNode operation,
      Set<String> inTemplate,
      Set<String> tags,
      Set<String> ids) {
    fields(where, operation, OPERATION);
    String id = operation.path("operationId").asText("");
    if (id.isEmpty() || !ids.add(id)) {
      problems.add(where + ": operationId missing or not unique");
    }
    operation
        .path("tags")
        .forEach(
            tag -> {
              if (!tags.contains(tag.asText())) {
                problems.add(where + ": tag " + tag.asText() + " is not in the document's tags");
              }
            });
    Set<String> declaredPath = new HashSet<>();
    Set<String> seen = new HashSet<>();
    for (JsonNode parameter : doc.parameters(template, operation)) {
      String name = parameter.path("name").asText("");
      String in = parameter.path("in").asText("");
      if (name.isEmpty() || !PARAMETER_IN.contains(in)) {
        problems.add(where + ": a parameter needs a name and in (query, header, path, cookie)");
        continue;
      }
      if (!seen.add(in + " " + name.toLowerCase(Locale.ROOT))) {
        problems.add(where + ": " + in + " parameter " + name + " is declared twice");
      }
      if (parameter.has("schema") == parameter.has("content")) {
        problems.add(where + ": parameter " + name + " needs a schema or a content, not both");
      }
      if (in.equals("path")) {
        declaredPath.add(name);
        if (!parameter.path("required").asBoolean(false)) {
          problems.add(where + ": path parameter " + name + " must be required");
        }
        if (!inTemplate.contains(name)) {
          problems.add(where + ": path parameter " + name + " is not in the template");
        }
      }
      schemaAt(where + " parameter " + name, parameter.path("schema"));
    }
    for (String name : inTemplate) {
      if (!declaredPath.contains(name)) {
        problems.add(where + ": {" + name + "} is not declared as a path parameter");
      }
    }
    JsonNode body = doc.resolve(operation.path("requestBody"));
    if (!body.isMissingNode()) {
      content(where + " requestBody", body.path("content"), true);
    }
    security(where + " security", operation.path("security"));
    responses(where, operation.path("responses"));
  }

  private void responses(String where, JsonNode responses) {
    if (!responses.isObject() || responses.isEmpty()) {
      problems.add(where + ": responses are required");
      return;
    }
    responses
        .fields()
        .forEachRemaining(
            entry -> {
              String status = entry.getKey();
              String at = where + " " + status;
              if (!STATUS.matcher(status).matches()) {
                problems.add(at + ": not a status code");
              }
              JsonNode response = doc.resolve(entry.getValue());
              if (!response.path("description").isTextual()) {
                problems.add(at + ": a response needs a description");
              }
              response
                  .path("headers")
                  .fields()
                  .forEachRemaining(
                      h ->
                          schemaAt(
                              at + " header " + h.getKey(),
                              doc.resolve(h.getValue()).path("schema")));
              content(at, response.path("content"), false);
              boolean error =
                  status.startsWith("4") || status.startsWith("5") || status.equals("default");
              if (error) {
                JsonNode problem = response.path("content").path("application/problem+json");
                if (response.path("content").size() != 1
                    || !problem
                        .path("schema")
                        .path("$ref")
                        .asText()
                        .equals("#/components/schemas/Problem")) {
                  problems.add(at + ": an error is answered as application/problem+json, Problem");
                }
              }
            });
  }

  private void content(String where, JsonNode content, boolean required) {
    if (required && (!content.isObject() || content.isEmpty())) {
      problems.add(where + ": content is required");
    }
    content
        .fields()
        .forEachRemaining(
            media -> {
              String at = where + " " + media.getKey();
              JsonNode schema = media.getValue().path("schema");
              if (schema.isMissingNode()) {
                problems.add(at + ": no schema");
                return;
              }
              schemaAt(at, schema);
              if (media.getValue().has("example")) {
                problems.addAll(
                    doc.validate(schema, media.getValue().get("example"), at + " example"));
              }
            });
  }

  /** A schema object: valid 2020-12, compilable in the OpenAPI dialect, its examples valid. */
  private void schemaAt(String where, JsonNode schema) {
    if (schema.isMissingNode()) {
      return;
    }
    META_SCHEMA.validate(schema).forEach(m -> problems.add(where + ": " + m.getMessage()));
    try {
      doc.compile(schema);
    } catch (RuntimeException e) {
      problems.add(where + ": does not compile: " + e.getMessage());
      return;
    }
    JsonNode examples = schema.path("examples");
    for (int i = 0; i < examples.size(); i++) {
      problems.addAll(doc.validate(schema, examples.get(i), where + " examples[" + i + "]"));
    }
  }

  private void schema(String where, JsonNode schema) {
    schemaAt(where, schema);
    schema
        .path("properties")
        .fields()
        .forEachRemaining(p -> schemaAt(where + "/properties/" + p.getKey(), p.getValue()));
  }

  private void security(String where, JsonNode requirements) {
    JsonNode schemes = root.path("components").path("securitySchemes");
    requirements.forEach(
        requirement ->
            requirement
                .fieldNames()
                .forEachRemaining(
                    name -> {
                      if (!schemes.has(name)) {
                        problems.add(where + ": no security scheme " + name);
                      }
                    }));
  }

  /** Every $ref is local and points at something. */
  private void references(JsonNode node, String pointer) {
    if (node.isObject()) {
      JsonNode ref = node.get("$ref");
      if (ref != null && ref.isTextual() && doc.at(ref.asText()).isMissingNode()) {
        problems.add(pointer + ": $ref " + ref.asText() + " does not resolve");
      }
      node.fields()
          .forEachRemaining(
              f ->
                  references(
                      f.getValue(),
                      pointer + "/" + f.getKey().replace("~", "~0").replace("/", "~1")));
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        references(node.get(i), pointer + "/" + i);
      }
    }
  }

  private void fields(String where, JsonNode node, Set<String> allowed) {
    node.fieldNames()
        .forEachRemaining(
            name -> {
              if (!allowed.contains(name) && !name.startsWith("x-")) {
                problems.add(where + ": " + name + " is not a field here");
              }
            });
  }
}
