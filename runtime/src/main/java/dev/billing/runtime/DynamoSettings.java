package dev.billing.runtime;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.net.URI;
import java.time.Period;

/**
 * Where the system of record is.
 *
 * @param endpoint set for DynamoDB Local (e.g. http://localhost:8000); empty for AWS, where the region
 *     and the default credential chain apply
 * @param createTables create missing tables at start-up (dev and tests); in AWS apply the schema files
 * @param receiptRetention how long receipts live before their TTL expires them
 */
public record DynamoSettings(
    @JsonProperty("endpoint") String endpoint,
    @JsonProperty("region") String region,
    @JsonProperty("billingTable") String billingTable,
    @JsonProperty("historyTable") String historyTable,
    @JsonProperty("paymentEventsTable") String paymentEventsTable,
    @JsonProperty("createTables") boolean createTables,
    @JsonProperty("receiptRetention") String receiptRetention) {

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
  }

  public static DynamoSettings local(String endpoint) {
    return new DynamoSettings(endpoint, null, null, null, null, true, null);
  }

  public Period receiptRetentionPeriod() {
    return Period.parse(receiptRetention);
  }
}
