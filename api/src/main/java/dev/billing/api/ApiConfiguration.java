package dev.billing.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.billing.api.auth.AuthSettings;
import dev.billing.api.webhooks.WebhookSettings;
import dev.billing.domain.DueInstants;
import dev.billing.domain.Reactivation;
import dev.billing.runtime.BillingConfiguration;
import java.time.Duration;

/**
 * api.yml: where Temporal and DynamoDB are (see BillingConfiguration), the key that signs page
 * tokens, the webhooks' signing secrets and how callers authenticate.
 */
public class ApiConfiguration extends BillingConfiguration {

  /**
   * Signs pagination tokens. Empty means a random per-process key: fine for one instance, but
   * tokens then break on restart and across instances. Take it from the environment in production.
   */
  @JsonProperty("pageTokenSecret")
  public String pageTokenSecret = "";

  /**
   * The window after midnight (subscription's zone) over which new subscriptions' reminders and
   * charges are spread, each at a time of day of its own (DueInstants); stored with each
   * subscription at creation, so a change applies to new subscriptions only. PT0S: midnight.
   */
  @JsonProperty("dueWindow")
  public String dueWindow = DueInstants.DEFAULT_WINDOW.toString();

  /** {@link #dueWindow} parsed and checked: a bad value stops the API at start-up. */
  public Duration dueWindow() {
    Duration window;
    try {
      window = Duration.parse(dueWindow);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "dueWindow must be an ISO-8601 duration such as PT6H, got " + dueWindow, e);
    }
    DueInstants.requireWindow(window);
    return window;
  }

  /**
   * How long after its cancellation a subscription can be reactivated (POST .../reactivate); the
   * API judges it from the record, so a change applies to every cancelled subscription at once.
   */
  @JsonProperty("reactivationWindow")
  public String reactivationWindow = Reactivation.DEFAULT_WINDOW.toString();

  /** {@link #reactivationWindow} parsed and checked: a bad value stops the API at start-up. */
  public Duration reactivationWindow() {
    Duration window;
    try {
      window = Duration.parse(reactivationWindow);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "reactivationWindow must be an ISO-8601 duration such as P30D, got " + reactivationWindow,
          e);
    }
    if (window.isNegative() || window.compareTo(Duration.ofDays(366)) > 0) {
      throw new IllegalArgumentException(
          "reactivationWindow must be between PT0S and P366D, got " + reactivationWindow);
    }
    return window;
  }

  /** Signing secrets of the payment webhooks; a provider without one has no endpoint. */
  @JsonProperty("webhooks")
  public WebhookSettings webhooks = WebhookSettings.none();

  /** API key cache and OIDC tokens. The keys themselves live in DynamoDB, hashed. */
  @JsonProperty("auth")
  public AuthSettings auth = AuthSettings.defaults();
}
