package dev.billing.bench.dynamo;

import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;

/**
 * AWS's write request units for one item of a TransactWriteItems, from the item before and after
 * the write (Developer Guide, "Read/write capacity mode" and "Global secondary indexes"): the table
 * write costs 2 units per KB (rounded up) of the larger of the two, since a transactional write
 * costs twice a standard one and a put or delete over an item is billed on the bigger version; each
 * index the item is in costs a standard write of its projection, two when the item's key in that
 * index moves (a delete and a put).
 */
public final class WriteUnits {
  private WriteUnits() {}

  /**
   * @param before the stored item the write replaces or deletes; null when there is none
   * @param after the item written; null for a delete
   */
  public static long transactional(
      Map<String, AttributeValue> before, Map<String, AttributeValue> after) {
    return 2 * ItemSize.writeUnits(Math.max(bytes(before), bytes(after)));
  }

  /** The index writes of the same item, over every global secondary index of its table. */
  public static long indexes(
      CreateTableRequest table,
      Map<String, AttributeValue> before,
      Map<String, AttributeValue> after) {
    long units = 0;
    for (GlobalSecondaryIndex index : table.globalSecondaryIndexes()) {
      units += index(table, index, before, after);
    }
    return units;
  }

  private static long index(
      CreateTableRequest table,
      GlobalSecondaryIndex index,
      Map<String, AttributeValue> before,
      Map<String, AttributeValue> after) {
    boolean was = inIndex(index, before);
    boolean is = inIndex(index, after);
    if (!was && !is) {
      return 0;
    }
    IndexProjection projection = IndexProjection.of(table, index.indexName());
    if (!was) {
      return ItemSize.writeUnits(ItemSize.bytes(projection.project(after)));
    }
    Map<String, AttributeValue> old = projection.project(before);
    if (!is) {
      return ItemSize.writeUnits(ItemSize.bytes(old));
    }
    Map<String, AttributeValue> now = projection.project(after);
    if (!sameKey(index, before, after)) {
      return ItemSize.writeUnits(ItemSize.bytes(old)) + ItemSize.writeUnits(ItemSize.bytes(now));
    }
    if (old.equals(now)) {
      return 0; // nothing the index holds changed: DynamoDB does not write it
    }
    return ItemSize.writeUnits(Math.max(ItemSize.bytes(old), ItemSize.bytes(now)));
  }

  /** Whether the item is in the index: an index is sparse, holding only items with its key. */
  public static boolean inIndex(GlobalSecondaryIndex index, Map<String, AttributeValue> item) {
    return item != null
        && index.keySchema().stream()
            .map(KeySchemaElement::attributeName)
            .allMatch(item::containsKey);
  }

  private static boolean sameKey(
      GlobalSecondaryIndex index,
      Map<String, AttributeValue> before,
      Map<String, AttributeValue> after) {
    return index.keySchema().stream()
        .map(KeySchemaElement::attributeName)
        .allMatch(name -> before.get(name).equals(after.get(name)));
  }

  private static long bytes(Map<String, AttributeValue> item) {
    return item == null ? 0 : ItemSize.bytes(item);
  }
}
