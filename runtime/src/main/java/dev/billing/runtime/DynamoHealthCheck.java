package dev.billing.runtime;

import com.codahale.metrics.health.HealthCheck;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/** Healthy when every table exists and is ACTIVE. */
public final class DynamoHealthCheck extends HealthCheck {
  private final DynamoConnection connection;

  public DynamoHealthCheck(DynamoConnection connection) {
    this.connection = connection;
  }

  @Override
  protected Result check() {
    var names = connection.tableNames();
    for (String table : new String[] {names.billing(), names.history(), names.paymentEvents()}) {
      TableStatus status =
          connection
              .client()
              .describeTable(DescribeTableRequest.builder().tableName(table).build())
              .table()
              .tableStatus();
      if (status != TableStatus.ACTIVE) {
        return Result.unhealthy("table " + table + " is " + status);
      }
    }
    return Result.healthy(
        "tables "
            + names.billing()
            + ", "
            + names.history()
            + ", "
            + names.paymentEvents()
            + " ACTIVE");
  }
}
