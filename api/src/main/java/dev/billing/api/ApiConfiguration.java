package dev.billing.api;

import dev.billing.api.auth.AuthSettings;
import dev.billing.api.webhooks.WebhookSettings;
import dev.billing.runtime.BillingConfiguration;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * api.yml: where Temporal and DynamoDB are (see BillingConfiguration), the key that signs page tokens,
 * the webhooks' signing secrets and how callers authenticate.
 */
public class ApiConfiguration extends BillingConfiguration {

  /**
   * Signs pagination tokens. Empty means a random per-process key: fine for one instance, but tokens
   * then break on restart and across instances. Take it from the environment in production.
   */
  @JsonProperty("pageTokenSecret")
  public String pageTokenSecret = "";

  /** Signing secrets of the payment webhooks; a provider without one has no endpoint. */
  @JsonProperty("webhooks")
  public WebhookSettings webhooks = WebhookSettings.none();

  /** API key cache and OIDC tokens. The keys themselves live in DynamoDB, hashed. */
  @JsonProperty("auth")
  public AuthSettings auth = AuthSettings.defaults();
}
