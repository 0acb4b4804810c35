package dev.billing.store;

import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Reading and writing single attributes; a missing required attribute names itself. */
final class Attrs {
  private Attrs() {}

  static AttributeValue s(String value) {
    return AttributeValue.fromS(value);
  }

  static AttributeValue n(long value) {
    return AttributeValue.fromN(Long.toString(value));
  }

  /** An exact decimal such as "9.99": N keeps it exact, which a double would not. */
  static AttributeValue n(String decimal) {
    return AttributeValue.fromN(decimal);
  }

  /** Absent attributes are how DynamoDB says "no value" (and what keeps the GSIs sparse). */
  static void putIfPresent(Map<String, AttributeValue> item, String name, String value) {
    if (value != null) {
      item.put(name, s(value));
    }
  }

  static String str(Map<String, AttributeValue> item, String name) {
    return require(item, name).s();
  }

  static String optStr(Map<String, AttributeValue> item, String name) {
    AttributeValue value = item.get(name);
    return value == null ? null : value.s();
  }

  static long num(Map<String, AttributeValue> item, String name) {
    return Long.parseLong(require(item, name).n());
  }

  static int intNum(Map<String, AttributeValue> item, String name) {
    return Math.toIntExact(num(item, name));
  }

  static String decimal(Map<String, AttributeValue> item, String name) {
    return require(item, name).n();
  }

  static Map<String, AttributeValue> map(Map<String, AttributeValue> item, String name) {
    return require(item, name).m();
  }

  private static AttributeValue require(Map<String, AttributeValue> item, String name) {
    AttributeValue value = item.get(name);
    if (value == null) {
      throw new IllegalStateException(
          "stored item "
              + optStr(item, Keys.PK)
              + "/"
              + optStr(item, Keys.SK)
              + " lacks attribute "
              + name);
    }
    return value;
  }
}
