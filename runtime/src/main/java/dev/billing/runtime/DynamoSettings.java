package dev.billing.runtime;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.billing.store.DateKeySharding;
import java.net.URI;
import java.time.Period;

/**
 * Where the system of record is.
 *
 * @param endpoint set for DynamoDB Local (e.g. http://localhost:8000); empty for AWS, where the
 *     region and the default credential chain apply
 * @param createTables create missing tables at start-up (dev and tests); in AWS apply the schema
 *     files
 * @param receiptRetention how long receipts live before their TTL expires them
 * @param dateKeyShards shards of the due-date index keys for a table the store opens first (a table
 *     keeps the count it was given: see DateKeySharding); null means the default, 16
 */
public record DynamoSettings(
    @JsonProperty("endpoint") String endpoint,
    @JsonProperty("region") String region,
    @JsonProperty("billingTable") String billingTable,
    @JsonProperty("historyTable") String historyTable,
    @JsonProperty("paymentEventsTable") String paymentEventsTable,
    @JsonProperty("createTables") boolean createTables,
    @JsonProperty("receiptRetention") String receiptRetention,
    @JsonProperty("dateKeyShards") Integer dateKeyShards) {

  public DynamoSettings {
    endpoint = TemporalSettings.blankToNull(endpoint);
    region = TemporalSettings.blankToDefault(region, "us-east-1");
    billingTable = TemporalSettings.blankToDefault(billingTable, "billing");
    historyTable = TemporalSettings.blankToDefault(historyTable, "billing-history");
    paymentEventsTable = TemporalSettings.blankToDefault(paymentEventsTable, "payment-events");
    receiptRetention = TemporalSettings.blankToDefault(receiptRetention, "P12M");
    if (endpoint != null) {
      URI.create(endpoint);
    }
    Period.parse(receiptRetention);
    dateKeyShards = dateKeyShards == null ? DateKeySharding.DEFAULT_SHARDS : dateKeyShards;
    DateKeySharding.of(dateKeyShards);
  }

  /** Settings with the default date-key shard count. */
  public DynamoSettings(
      String endpoint,
      String region,
      String billingTable,
      String historyTable,
      String paymentEventsTable,
      boolean createTables,
      String receiptRetention) {
    this(
        endpoint,
        region,
        billingTable,
        historyTable,
        paymentEventsTable,
        createTables,
        receiptRetention,
        null);
  }

  public static DynamoSettings local(String endpoint) {
    return new DynamoSettings(endpoint, null, null, null, null, true, null);
  }

  public Period receiptRetentionPeriod() {
    return Period.parse(receiptRetention);
  }
}
