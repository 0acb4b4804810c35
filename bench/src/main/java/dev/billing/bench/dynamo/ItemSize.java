package dev.billing.bench.dynamo;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An item's size as DynamoDB bills it (Developer Guide, "Item sizes and formats"): attribute names
 * count; strings and binaries by their bytes; numbers about one byte per two significant digits
 * plus one; booleans and nulls one byte; lists and maps three bytes plus one per element.
 */
public final class ItemSize {
  private ItemSize() {}

  public static long bytes(Map<String, AttributeValue> item) {
    long size = 0;
    for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
      size += utf8(attribute.getKey()) + value(attribute.getValue());
    }
    return size;
  }

  /** Write units of a standard write of this many bytes (1 KB each, rounded up). */
  public static long writeUnits(long bytes) {
    return Math.max(1, (bytes + 1023) / 1024);
  }

  static long value(AttributeValue value) {
    if (value.s() != null) {
      return utf8(value.s());
    }
    if (value.n() != null) {
      return numberBytes(value.n());
    }
    if (value.b() != null) {
      return value.b().asByteArray().length;
    }
    if (value.bool() != null || Boolean.TRUE.equals(value.nul())) {
      return 1;
    }
    if (value.hasM()) {
      long size = 3;
      for (Map.Entry<String, AttributeValue> entry : value.m().entrySet()) {
        size += 1 + utf8(entry.getKey()) + value(entry.getValue());
      }
      return size;
    }
    if (value.hasL()) {
      long size = 3;
      for (AttributeValue element : value.l()) {
        size += 1 + value(element);
      }
      return size;
    }
    if (value.hasSs()) {
      return value.ss().stream().mapToLong(ItemSize::utf8).sum();
    }
    if (value.hasNs()) {
      return value.ns().stream().mapToLong(ItemSize::numberBytes).sum();
    }
    return 0;
  }

  static long numberBytes(String number) {
    String digits =
        new BigDecimal(number).unscaledValue().abs().toString().replaceAll("^0+|0+$", "");
    return (Math.max(1, digits.length()) + 1) / 2 + 1;
  }

  private static long utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }
}
