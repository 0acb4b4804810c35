package dev.billing.runtime;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.core.Configuration;
import jakarta.validation.constraints.NotNull;

/** What every billing process configures: where Temporal and DynamoDB are. */
public class BillingConfiguration extends Configuration {

  @NotNull
  @JsonProperty("temporal")
  public TemporalSettings temporal = TemporalSettings.local(null);

  /** Without a dynamo block: AWS in us-east-1, tables must already exist. */
  @NotNull
  @JsonProperty("dynamo")
  public DynamoSettings dynamo = new DynamoSettings(null, null, null, null, null, false, null);
}
