package dev.billing.api.errors;

import com.fasterxml.jackson.databind.JsonMappingException;

/** "items[2].sku" from Jackson's reference chain; null when the whole body is at fault. */
final class FieldPaths {
  private FieldPaths() {}

  static String of(JsonMappingException e) {
    StringBuilder path = new StringBuilder();
    for (JsonMappingException.Reference ref : e.getPath()) {
      if (ref.getFieldName() != null) {
        if (path.length() > 0) {
          path.append('.');
        }
        path.append(ref.getFieldName());
      } else if (ref.getIndex() >= 0) {
        path.append('[').append(ref.getIndex()).append(']');
      }
    }
    return path.length() == 0 ? null : path.toString();
  }
}
