package dev.billing.store;

import dev.billing.store.HistoryEntry.FieldChange;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Field-by-field difference of two items, nested maps flattened to "Parent.Child". */
final class ItemDiff {
  private ItemDiff() {}

  /**
   * @param before null or empty when there was nothing before (every field then appears as added)
   * @param ignored top-level attributes left out of the comparison
   * @return changes sorted by field name, so that the same change always reads the same
   */
  static List<FieldChange> between(
      Map<String, AttributeValue> before, Map<String, AttributeValue> after, Set<String> ignored) {
    Map<String, String> from = flatten(before == null ? Map.of() : before, ignored);
    Map<String, String> to = flatten(after, ignored);
    Set<String> fields = new TreeSet<>(from.keySet());
    fields.addAll(to.keySet());
    List<FieldChange> changes = new ArrayList<>();
    for (String field : fields) {
      if (!Objects.equals(from.get(field), to.get(field))) {
        changes.add(new FieldChange(field, from.get(field), to.get(field)));
      }
    }
    return changes;
  }

  private static Map<String, String> flatten(
      Map<String, AttributeValue> item, Set<String> ignored) {
    Map<String, String> flat = new TreeMap<>();
    item.forEach(
        (name, value) -> {
          if (!ignored.contains(name)) {
            flatten(name, value, flat);
          }
        });
    return flat;
  }

  private static void flatten(String path, AttributeValue value, Map<String, String> flat) {
    switch (value.type()) {
      case S -> flat.put(path, value.s());
      case N -> flat.put(path, value.n());
      case BOOL -> flat.put(path, value.bool().toString());
      case NUL -> {}
      case M -> value.m().forEach((name, nested) -> flatten(path + "." + name, nested, flat));
      // Lists and sets do not occur in a subscription item; compare them whole if one ever does.
      default -> flat.put(path, value.toString());
    }
  }
}
