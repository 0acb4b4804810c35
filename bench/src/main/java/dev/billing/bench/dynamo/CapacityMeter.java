package dev.billing.bench.dynamo;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.Capacity;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * Counts the read and write units DynamoDB reports (ReturnConsumedCapacity) for every call of one
 * client, by operation. Requests that ask for nothing are made to ask for TOTAL; a request that
 * already asks (the store's transactions ask for TOTAL) is left exactly as the code under test sent
 * it, so the meter never changes what it measures.
 */
public final class CapacityMeter implements ExecutionInterceptor {

  private static final class Counter {
    final LongAdder calls = new LongAdder();
    final DoubleAdder reads = new DoubleAdder();
    final DoubleAdder writes = new DoubleAdder();
  }

  private final Map<String, Counter> byOperation = new ConcurrentHashMap<>();

  @Override
  public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
    SdkRequest request = context.request();
    ReturnConsumedCapacity total = ReturnConsumedCapacity.TOTAL;
    if (request instanceof QueryRequest r && r.returnConsumedCapacity() == null) {
      return r.toBuilder().returnConsumedCapacity(total).build();
    }
    if (request instanceof GetItemRequest r && r.returnConsumedCapacity() == null) {
      return r.toBuilder().returnConsumedCapacity(total).build();
    }
    if (request instanceof PutItemRequest r && r.returnConsumedCapacity() == null) {
      return r.toBuilder().returnConsumedCapacity(total).build();
    }
    if (request instanceof UpdateItemRequest r && r.returnConsumedCapacity() == null) {
      return r.toBuilder().returnConsumedCapacity(total).build();
    }
    if (request instanceof DeleteItemRequest r && r.returnConsumedCapacity() == null) {
      return r.toBuilder().returnConsumedCapacity(total).build();
    }
    if (request instanceof ScanRequest r && r.returnConsumedCapacity() == null) {
      return r.toBuilder().returnConsumedCapacity(total).build();
    }
    if (request instanceof TransactWriteItemsRequest r && r.returnConsumedCapacity() == null) {
      return r.toBuilder().returnConsumedCapacity(total).build();
    }
    if (request instanceof TransactGetItemsRequest r && r.returnConsumedCapacity() == null) {
      return r.toBuilder().returnConsumedCapacity(total).build();
    }
    if (request instanceof BatchGetItemRequest r && r.returnConsumedCapacity() == null) {
      return r.toBuilder().returnConsumedCapacity(total).build();
    }
    if (request instanceof BatchWriteItemRequest r && r.returnConsumedCapacity() == null) {
      return r.toBuilder().returnConsumedCapacity(total).build();
    }
    return request;
  }

  @Override
  public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
    SdkResponse response = context.response();
    String operation = operationOf(context.request());
    boolean write = isWrite(operation);
    Counter counter = byOperation.computeIfAbsent(operation, k -> new Counter());
    counter.calls.increment();
    for (ConsumedCapacity capacity : consumed(response)) {
      add(counter, capacity, write);
    }
  }

  /**
   * Adds one ConsumedCapacity: read and write units when DynamoDB splits them, else the total by
   * the operation's kind.
   */
  static void add(Counter counter, ConsumedCapacity capacity, boolean write) {
    if (capacity == null) {
      return;
    }
    Double reads = capacity.readCapacityUnits();
    Double writes = capacity.writeCapacityUnits();
    if (reads != null || writes != null) {
      counter.reads.add(reads == null ? 0 : reads);
      counter.writes.add(writes == null ? 0 : writes);
      return;
    }
    double units =
        capacity.capacityUnits() == null ? sumOfParts(capacity) : capacity.capacityUnits();
    (write ? counter.writes : counter.reads).add(units);
  }

  private static double sumOfParts(ConsumedCapacity capacity) {
    double units =
        capacity.table() == null || capacity.table().capacityUnits() == null
            ? 0
            : capacity.table().capacityUnits();
    if (capacity.hasGlobalSecondaryIndexes()) {
      for (Capacity index : capacity.globalSecondaryIndexes().values()) {
        units += index.capacityUnits() == null ? 0 : index.capacityUnits();
      }
    }
    return units;
  }

  private static List<ConsumedCapacity> consumed(SdkResponse response) {
    if (response instanceof QueryResponse r) {
      return single(r.consumedCapacity());
    }
    if (response instanceof GetItemResponse r) {
      return single(r.consumedCapacity());
    }
    if (response instanceof PutItemResponse r) {
      return single(r.consumedCapacity());
    }
    if (response instanceof UpdateItemResponse r) {
      return single(r.consumedCapacity());
    }
    if (response instanceof DeleteItemResponse r) {
      return single(r.consumedCapacity());
    }
    if (response instanceof ScanResponse r) {
      return single(r.consumedCapacity());
    }
    if (response instanceof TransactWriteItemsResponse r) {
      return r.hasConsumedCapacity() ? r.consumedCapacity() : List.of();
    }
    if (response instanceof TransactGetItemsResponse r) {
      return r.hasConsumedCapacity() ? r.consumedCapacity() : List.of();
    }
    if (response instanceof BatchGetItemResponse r) {
      return r.hasConsumedCapacity() ? r.consumedCapacity() : List.of();
    }
    if (response instanceof BatchWriteItemResponse r) {
      return r.hasConsumedCapacity() ? r.consumedCapacity() : List.of();
    }
    return List.of();
  }

  private static List<ConsumedCapacity> single(ConsumedCapacity capacity) {
    return capacity == null ? List.of() : List.of(capacity);
  }

  static String operationOf(SdkRequest request) {
    String name = request.getClass().getSimpleName();
    return name.endsWith("Request") ? name.substring(0, name.length() - "Request".length()) : name;
  }

  private static boolean isWrite(String operation) {
    return switch (operation) {
      case "PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem" -> true;
      default -> false;
    };
  }

  /** What was counted since the last {@link #reset}. */
  public ConsumedUnits snapshot() {
    Map<String, ConsumedUnits.Usage> usage = new HashMap<>();
    byOperation.forEach(
        (operation, c) ->
            usage.put(
                operation, new ConsumedUnits.Usage(c.calls.sum(), c.reads.sum(), c.writes.sum())));
    return new ConsumedUnits(usage);
  }

  public void reset() {
    byOperation.clear();
  }

  /** Testing seam: counts one response as if it came from the given operation. */
  void record(String operation, List<ConsumedCapacity> capacities) {
    Counter counter = byOperation.computeIfAbsent(operation, k -> new Counter());
    counter.calls.increment();
    capacities.forEach(capacity -> add(counter, capacity, isWrite(operation)));
  }
}
