package dev.billing.activities.payments;

import dev.billing.domain.Money;
import java.util.Map;
import java.util.Objects;

/**
 * @param idempotencyKey the same for every retry of one collection attempt
 * @param paymentMethodToken the gateway's token of the payment method, never a card number
 * @param description shown on the customer's statement and in the gateway's dashboard
 * @param metadata searchable tags kept with the charge in the gateway (subscription id, cycle), so an
 *     operator can find a charge from the gateway's side
 */
public record GatewayChargeRequest(
    String idempotencyKey,
    Money amount,
    String paymentMethodToken,
    String description,
    Map<String, String> metadata) {

  public static final String SUBSCRIPTION_ID = "subscriptionId";
  public static final String CYCLE = "cycle";

  public GatewayChargeRequest {
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(paymentMethodToken, "paymentMethodToken");
    metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
  }
}
