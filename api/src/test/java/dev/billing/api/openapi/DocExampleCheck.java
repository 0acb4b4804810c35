package dev.billing.api.openapi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.billing.api.openapi.DocExamples.Example;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What an example of the documentation gets wrong against the OpenAPI description: a path or method
 * it does not have, a query parameter it does not declare or whose value its schema refuses, a body
 * its request schema refuses, an answer with a status it does not list, a field its response schema
 * does not have or a value it refuses. A shown answer may leave fields out ({@code …}); what it
 * shows must be right.
 */
final class DocExampleCheck {
  private final OpenApiDocument doc;
  private final Set<String> problems = new LinkedHashSet<>();

  private DocExampleCheck(OpenApiDocument doc) {
    this.doc = doc;
  }

  static List<String> problems(OpenApiDocument doc, Example example) {
    DocExampleCheck check = new DocExampleCheck(doc);
    check.check(example);
    return List.copyOf(check.problems);
  }

  private void check(Example example) {
    String where = example.where();
    String template = template(example.path());
    JsonNode operation = template == null ? null : doc.operation(example.method(), template);
    if (operation == null) {
      problems.add(where + ": no such operation in the document");
      return;
    }
    List<JsonNode> parameters = doc.parameters(template, operation);
    pathValues(where, template, example.path(), parameters);
    example
        .query()
        .forEach(
            (name, value) -> {
              JsonNode parameter =
                  parameters.stream()
                      .filter(p -> p.path("in").asText().equals("query"))
                      .filter(p -> p.path("name").asText().equals(name))
                      .findFirst()
                      .orElse(null);
              if (parameter == null) {
                problems.add(where + ": query parameter " + name + " is not in the document");
              } else if (value.contains(DocExamples.PLACEHOLDER) || value.startsWith("<")) {
                // A value the example stands in for ("sub_…"), as in a path: its name is checked.
              } else {
                JsonNode schema = parameter.path("schema");
                problems.addAll(doc.validate(schema, typed(schema, value), where + " ?" + name));
              }
            });
    for (JsonNode parameter : parameters) {
      if (parameter.path("in").asText().equals("query")
          && parameter.path("required").asBoolean(false)
          && !example.query().containsKey(parameter.path("name").asText())) {
        problems.add(
            where
                + ": the required query parameter "
                + parameter.path("name").asText()
                + " is missing");
      }
    }
    if (example.body() != null) {
      body(where, operation, example.body());
    }
    if (example.answer() != null) {
      String status = Integer.toString(example.answer().status());
      if (!operation.path("responses").has(status)) {
        problems.add(where + ": no " + status + " answer in the document");
        return;
      }
      JsonNode schema = doc.responseSchema(operation, status);
      if (schema.isMissingNode()) {
        problems.add(where + ": the document's " + status + " answer has no JSON body");
        return;
      }
      shown(schema, example.answer().shown(), where + " answer");
    }
  }

  private void body(String where, JsonNode operation, String text) {
    JsonNode schema =
        doc.resolve(operation.path("requestBody")).path("content").path("application/json");
    if (schema.isMissingNode()) {
      problems.add(where + ": the document has no JSON request body here");
      return;
    }
    JsonNode body;
    try {
      body = OpenApiDocument.JSON.readTree(text);
    } catch (JsonProcessingException e) {
      problems.add(where + ": the body is not JSON: " + e.getOriginalMessage());
      return;
    }
    problems.addAll(doc.validate(schema.path("schema"), body, where + " body"));
  }

  /** Path segments the example writes as values (not "sub_…" or "<id>") checked too. */
  private void pathValues(String where, String template, String path, List<JsonNode> parameters) {
    String[] names = template.split("/");
    String[] values = path.split("/");
    for (int i = 0; i < names.length; i++) {
      if (!names[i].startsWith("{")
          || values[i].contains(DocExamples.PLACEHOLDER)
          || values[i].startsWith("<")) {
        continue;
      }
      String name = names[i].substring(1, names[i].length() - 1);
      for (JsonNode parameter : parameters) {
        if (parameter.path("in").asText().equals("path")
            && parameter.path("name").asText().equals(name)) {
          problems.addAll(
              doc.validate(
                  parameter.path("schema"),
                  JsonNodeFactory.instance.textNode(values[i]),
                  where + " {" + name + "}"));
        }
      }
    }
  }

  /**
   * A shown value against its schema: whole when it shows no {@code …}, else field by field, each
   * shown field one the schema has.
   */
  private void shown(JsonNode schema, JsonNode value, String where) {
    if (value.isTextual() && value.asText().contains(DocExamples.PLACEHOLDER)) {
      return;
    }
    if (value.isObject()) {
      JsonNode properties = doc.properties(schema);
      for (Iterator<Map.Entry<String, JsonNode>> fields = value.fields(); fields.hasNext(); ) {
        Map.Entry<String, JsonNode> field = fields.next();
        if (field.getKey().startsWith(DocExamples.PLACEHOLDER)) {
          continue; // the members left out
        }
        if (!properties.has(field.getKey())) {
          problems.add(where + ": " + field.getKey() + " is not a field of this answer");
        } else {
          shown(properties.get(field.getKey()), field.getValue(), where + "." + field.getKey());
        }
      }
      if (hasPlaceholder(value)) {
        return;
      }
    }
    problems.addAll(doc.validate(schema, value, where));
  }

  private static boolean hasPlaceholder(JsonNode value) {
    if (value.isTextual()) {
      return value.asText().contains(DocExamples.PLACEHOLDER);
    }
    for (JsonNode child : value) {
      if (hasPlaceholder(child)) {
        return true;
      }
    }
    return false;
  }

  /** The document's path template this path is an instance of, the most literal one. */
  private String template(String path) {
    String[] segments = path.split("/");
    String best = null;
    int bestLiterals = -1;
    for (Iterator<String> templates = doc.root().path("paths").fieldNames();
        templates.hasNext(); ) {
      String template = templates.next();
      String[] parts = template.split("/");
      if (parts.length != segments.length) {
        continue;
      }
      int literals = 0;
      boolean matches = true;
      for (int i = 0; i < parts.length && matches; i++) {
        if (parts[i].startsWith("{") && parts[i].endsWith("}")) {
          matches = !segments[i].isEmpty();
        } else if (parts[i].equals(segments[i])) {
          literals++;
        } else {
          matches = false;
        }
      }
      if (matches && literals > bestLiterals) {
        best = template;
        bestLiterals = literals;
      }
    }
    return best;
  }

  /** A query string value as the JSON type its schema declares. */
  private JsonNode typed(JsonNode schema, String value) {
    if (doc.types(schema).contains("integer") && value.matches("-?[0-9]{1,18}")) {
      return JsonNodeFactory.instance.numberNode(Long.parseLong(value));
    }
    return JsonNodeFactory.instance.textNode(value);
  }

  static List<String> all(OpenApiDocument doc, List<Example> examples) {
    List<String> found = new ArrayList<>();
    examples.forEach(e -> found.addAll(problems(doc, e)));
    return found;
  }
}
