package dev.billing.worker;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.billing.runtime.DynamoSettings;
import dev.billing.runtime.TemporalSettings;
import io.dropwizard.core.Configuration;
import jakarta.validation.constraints.NotNull;

/** worker.yml: where Temporal and DynamoDB are, and which gateway and notifier adapters to use. */
public class WorkerConfiguration extends Configuration {

  @NotNull
  @JsonProperty("temporal")
  public TemporalSettings temporal = TemporalSettings.local(null);

  @NotNull
  @JsonProperty("dynamo")
  public DynamoSettings dynamo = DynamoSettings.local(null);

  /** "sandbox" (deterministic test payment methods). The Stripe adapter arrives with issue 4. */
  @NotNull
  @JsonProperty("gateway")
  public String gateway = "sandbox";
}
