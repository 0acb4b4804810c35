package dev.billing.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Where a read over partitions taken in order (the shards of one due date) stands: the shard and,
 * inside it, DynamoDB's LastEvaluatedKey. Its JSON form, {@code "s":shard,"k":{name:string}}, is
 * shared by the signed page tokens and reconciliation's unsigned cursors.
 *
 * @param key null to start at the beginning of {@code shard}
 */
record ReadPosition(int shard, Map<String, AttributeValue> key) {
  static final ReadPosition START = new ReadPosition(0, null);

  void writeTo(ObjectNode node) {
    node.put("s", shard);
    if (key != null && !key.isEmpty()) {
      writeKey(node, key);
    }
  }

  /**
   * @param shards how many shards the read has: a position past them was not issued by it
   * @throws IllegalArgumentException when {@code node} holds no such position
   */
  static ReadPosition readFrom(JsonNode node, int shards) {
    JsonNode shard = node.path("s");
    if (!shard.isInt() || shard.intValue() < 0 || shard.intValue() >= shards) {
      throw new IllegalArgumentException("no shard below " + shards);
    }
    JsonNode key = node.path("k");
    return new ReadPosition(shard.intValue(), key.isMissingNode() ? null : readKey(key));
  }

  static void writeKey(ObjectNode node, Map<String, AttributeValue> key) {
    ObjectNode keyNode = node.putObject("k");
    key.forEach(
        (name, value) -> {
          if (value.s() == null) {
            // Every key attribute of both tables and both GSIs is a string (schema/*.json).
            throw new IllegalStateException("key attribute " + name + " is not a string: " + value);
          }
          keyNode.put(name, value.s());
        });
  }

  /**
   * @throws IllegalArgumentException unless {@code keyNode} is a non-empty object of strings
   */
  static Map<String, AttributeValue> readKey(JsonNode keyNode) {
    if (!keyNode.isObject() || keyNode.isEmpty()) {
      throw new IllegalArgumentException("no key");
    }
    Map<String, AttributeValue> key = new HashMap<>();
    for (Map.Entry<String, JsonNode> field : keyNode.properties()) {
      if (!field.getValue().isTextual()) {
        throw new IllegalArgumentException("key attribute " + field.getKey() + " is not a string");
      }
      key.put(field.getKey(), AttributeValue.fromS(field.getValue().textValue()));
    }
    return key;
  }
}
