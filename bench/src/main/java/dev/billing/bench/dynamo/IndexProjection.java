package dev.billing.bench.dynamo;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;

/**
 * What a global secondary index keeps of an item, read from the table's schema: DynamoDB bills an
 * index write by the size of the projected item, not of the whole one.
 *
 * @param attributes the attributes kept; null when the index keeps them all
 */
public record IndexProjection(Set<String> attributes) {

  public static IndexProjection of(CreateTableRequest table, String indexName) {
    GlobalSecondaryIndex index =
        table.globalSecondaryIndexes().stream()
            .filter(i -> i.indexName().equals(indexName))
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "no index " + indexName + " in " + table.tableName()));
    if (index.projection().projectionType() == ProjectionType.ALL) {
      return new IndexProjection(null);
    }
    // Every projection holds the table's key and the index's key.
    Set<String> attributes = new HashSet<>();
    table.keySchema().stream().map(KeySchemaElement::attributeName).forEach(attributes::add);
    index.keySchema().stream().map(KeySchemaElement::attributeName).forEach(attributes::add);
    attributes.addAll(index.projection().nonKeyAttributes());
    return new IndexProjection(Set.copyOf(attributes));
  }

  /** The item as the index stores it. */
  public Map<String, AttributeValue> project(Map<String, AttributeValue> item) {
    if (attributes == null) {
      return item;
    }
    Map<String, AttributeValue> projected = new HashMap<>();
    item.forEach(
        (name, value) -> {
          if (attributes.contains(name)) {
            projected.put(name, value);
          }
        });
    return projected;
  }
}
