package dev.billing.api.support;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A DynamoDB client that counts the writes that took effect (a conditional write that was refused
 * does not count), so a test can tell that a request wrote nothing without scanning every table.
 */
public final class WriteCounting {
  private static final Set<String> WRITES =
      Set.of(
          "putItem",
          "updateItem",
          "deleteItem",
          "transactWriteItems",
          "batchWriteItem",
          "executeStatement",
          "batchExecuteStatement",
          "executeTransaction",
          "createTable",
          "deleteTable",
          "updateTable",
          "updateTimeToLive");

  private WriteCounting() {}

  public static DynamoDbClient wrap(DynamoDbClient delegate, AtomicLong writes) {
    return (DynamoDbClient)
        Proxy.newProxyInstance(
            DynamoDbClient.class.getClassLoader(),
            new Class<?>[] {DynamoDbClient.class},
            (proxy, method, args) -> {
              Object result;
              try {
                result = method.invoke(delegate, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
              if (WRITES.contains(method.getName())) {
                writes.incrementAndGet();
              }
              return result;
            });
  }
}
