package dev.billing.bench.dynamo;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * DynamoDB units by operation (PutItem, Query, TransactWriteItems, ...), sorted, as a {@link
 * CapacityMeter} counted them since its last reset; the worker process sends it as JSON.
 */
public record ConsumedUnits(Map<String, Usage> byOperation) {

  /** Units of one operation. */
  public record Usage(long calls, double readUnits, double writeUnits) {}

  public ConsumedUnits {
    byOperation = Collections.unmodifiableMap(new TreeMap<>(byOperation));
  }

  public double readUnits() {
    double units = 0;
    for (Usage usage : byOperation.values()) {
      units += usage.readUnits();
    }
    return units;
  }

  public double writeUnits() {
    double units = 0;
    for (Usage usage : byOperation.values()) {
      units += usage.writeUnits();
    }
    return units;
  }

  public long calls(String operation) {
    Usage usage = byOperation.get(operation);
    return usage == null ? 0 : usage.calls();
  }
}
