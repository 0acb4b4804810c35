package dev.billing.activities.payments;

import dev.billing.domain.Money;
import java.util.Map;
import java.util.Objects;

/**
 * @param idempotencyKey the same for every retry of one collection attempt
 * @param paymentMethodToken the gateway's token of the payment method, never a card number
 * @param description shown on the customer's statement and in the gateway's dashboard
 * @param metadata searchable tags kept with the charge in the gateway (subscription id, cycle), so
 *     an operator can find a charge from the gateway's side
 */
public record GatewayChargeRequest(
    String idempotencyKey,
    Money amount,
    String paymentMethodToken,
    String description,
    Map<String, String> metadata) {

  public static final String SUBSCRIPTION_ID = "subscriptionId";
  public static final String CYCLE = "cycle";

  /**
   * Adapters add the idempotency key to the gateway's metadata under this name, so look-ups by key
   * and events map back to the attempt.
   */
  public static final String IDEMPOTENCY_KEY = "idempotencyKey";

  public GatewayChargeRequest {
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(paymentMethodToken, "paymentMethodToken");
    metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
  }

  /** The subscription id from the metadata; null when absent. */
  public String subscriptionId() {
    return metadata.get(SUBSCRIPTION_ID);
  }

  /** The cycle from the metadata; null when absent or not a number. */
  public Long cycle() {
    String cycle = metadata.get(CYCLE);
    if (cycle == null) {
      return null;
    }
    try {
      return Long.valueOf(cycle);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Leaves the payment method token out: logs must never carry one. */
  @Override
  public String toString() {
    return "GatewayChargeRequest[idempotencyKey="
        + idempotencyKey
        + ", amount="
        + amount
        + ", description="
        + description
        + ", metadata="
        + metadata
        + "]";
  }
}
