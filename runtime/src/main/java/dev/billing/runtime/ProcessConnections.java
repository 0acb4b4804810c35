package dev.billing.runtime;

import dev.billing.store.DynamoBillingStore;
import dev.billing.store.NotificationLog;
import dev.billing.store.StoreSettings;
import io.dropwizard.core.setup.Environment;

/**
 * A process's connections to Temporal and DynamoDB, closed with the process and each watched by a
 * health check on the admin port, and its metrics.
 */
public record ProcessConnections(
    TemporalConnection temporal, DynamoConnection dynamo, ProcessMetrics metrics) {

  /**
   * @param process "worker" or "api": the {@code process} tag of its metrics, served in Prometheus
   *     format at {@value ProcessMetrics#PATH} on the admin port
   */
  public static ProcessConnections open(
      BillingConfiguration config, Environment environment, String process) {
    ProcessMetrics metrics = new ProcessMetrics(process);
    metrics.register(environment);
    DynamoConnection dynamo = new DynamoConnection(config.dynamo);
    TemporalConnection temporal = new TemporalConnection(config.temporal, metrics.temporalScope());
    environment.lifecycle().manage(dynamo);
    environment.lifecycle().manage(temporal);
    environment.healthChecks().register("dynamodb", new DynamoHealthCheck(dynamo));
    environment.healthChecks().register("temporal", new TemporalHealthCheck(temporal));
    return new ProcessConnections(temporal, dynamo, metrics);
  }

  /**
   * The system of record over this connection; {@code pageTokenKey} signs the pages it hands out.
   */
  public DynamoBillingStore store(byte[] pageTokenKey) {
    return new DynamoBillingStore(
        dynamo.client(),
        dynamo.tableNames(),
        new StoreSettings(
            dynamo.settings().receiptRetentionPeriod(),
            pageTokenKey,
            dynamo.settings().dateKeyShards()));
  }

  /**
   * Which customer messages the mail server answered, in the billing table; entries live as long as
   * receipts (the configured receipt retention).
   */
  public NotificationLog notificationLog() {
    return new NotificationLog(
        dynamo.client(), dynamo.tableNames().billing(), dynamo.settings().receiptRetentionPeriod());
  }
}
