package dev.billing.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.billing.runtime.DynamoSettings;
import dev.billing.runtime.TemporalSettings;
import io.dropwizard.core.Configuration;
import jakarta.validation.constraints.NotNull;

/** api.yml: where Temporal and DynamoDB are, and the key that signs page tokens. */
public class ApiConfiguration extends Configuration {

  @NotNull
  @JsonProperty("temporal")
  public TemporalSettings temporal = TemporalSettings.local(null);

  @NotNull
  @JsonProperty("dynamo")
  public DynamoSettings dynamo = DynamoSettings.local(null);

  /**
   * Signs pagination tokens. Empty means a random per-process key: fine for one instance, but tokens
   * then break on restart and across instances. Take it from the environment in production.
   */
  @JsonProperty("pageTokenSecret")
  public String pageTokenSecret = "";
}
