package dev.billing.runtime;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.billing.workflows.TaskQueues;

/**
 * Where the Temporal service is. The defaults reach a local dev server; Temporal Cloud needs the
 * namespace endpoint as target plus either an API key or an mTLS client certificate.
 *
 * @param apiKey Temporal Cloud API key; take it from the environment (${TEMPORAL_API_KEY}), never
 *     write it in a file under version control
 * @param tlsCertPath PEM client certificate for mTLS (Temporal Cloud or a self-hosted cluster)
 * @param tlsKeyPath PKCS8 PEM private key matching tlsCertPath
 */
public record TemporalSettings(
    @JsonProperty("target") String target,
    @JsonProperty("namespace") String namespace,
    @JsonProperty("taskQueue") String taskQueue,
    @JsonProperty("apiKey") String apiKey,
    @JsonProperty("tlsCertPath") String tlsCertPath,
    @JsonProperty("tlsKeyPath") String tlsKeyPath) {

  public TemporalSettings {
    target = blankToDefault(target, "localhost:7233");
    namespace = blankToDefault(namespace, "default");
    taskQueue = blankToDefault(taskQueue, TaskQueues.BILLING);
    apiKey = blankToNull(apiKey);
    tlsCertPath = blankToNull(tlsCertPath);
    tlsKeyPath = blankToNull(tlsKeyPath);
    if ((tlsCertPath == null) != (tlsKeyPath == null)) {
      throw new IllegalArgumentException(
          "temporal.tlsCertPath and temporal.tlsKeyPath go together");
    }
  }

  public static TemporalSettings local(String target) {
    return new TemporalSettings(target, null, null, null, null, null);
  }

  public boolean usesTls() {
    return apiKey != null || tlsCertPath != null;
  }

  static String blankToDefault(String value, String fallback) {
    return value == null || value.isBlank() ? fallback : value;
  }

  static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }

  @Override
  public String toString() {
    // Never print the API key.
    return "TemporalSettings[target="
        + target
        + ", namespace="
        + namespace
        + ", taskQueue="
        + taskQueue
        + ", auth="
        + (apiKey != null ? "api-key" : tlsCertPath != null ? "mtls" : "none")
        + "]";
  }
}
