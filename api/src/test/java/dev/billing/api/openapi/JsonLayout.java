package dev.billing.api.openapi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Iterator;
import java.util.Map;

/**
 * The one layout of the document's file, so that a change shows as a small diff: two-space indent,
 * one member or element per line, {@code "key": value}, empty objects and arrays as {@code {}} and
 * {@code []}, keys in the order written, non-ASCII characters as themselves, a final newline.
 */
final class JsonLayout {
  private static final ObjectMapper SCALARS = new ObjectMapper();

  private JsonLayout() {}

  static String render(JsonNode node) {
    StringBuilder out = new StringBuilder();
    render(node, 0, out);
    return out.append('\n').toString();
  }

  private static void render(JsonNode node, int depth, StringBuilder out) {
    if (node.isObject() && !node.isEmpty()) {
      out.append("{\n");
      for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
        Map.Entry<String, JsonNode> field = fields.next();
        indent(depth + 1, out).append(scalar(SCALARS.getNodeFactory().textNode(field.getKey())));
        out.append(": ");
        render(field.getValue(), depth + 1, out);
        out.append(fields.hasNext() ? ",\n" : "\n");
      }
      indent(depth, out).append('}');
    } else if (node.isArray() && !node.isEmpty()) {
      out.append("[\n");
      for (int i = 0; i < node.size(); i++) {
        indent(depth + 1, out);
        render(node.get(i), depth + 1, out);
        out.append(i + 1 < node.size() ? ",\n" : "\n");
      }
      indent(depth, out).append(']');
    } else if (node.isObject()) {
      out.append("{}");
    } else if (node.isArray()) {
      out.append("[]");
    } else {
      out.append(scalar(node));
    }
  }

  private static StringBuilder indent(int depth, StringBuilder out) {
    return out.append("  ".repeat(depth));
  }

  private static String scalar(JsonNode node) {
    try {
      return SCALARS.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
