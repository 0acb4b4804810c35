package dev.billing.activities.payments.stripe;

import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.domain.BillingIds;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Our metadata on a Stripe object (subscriptionId, cycle, idempotencyKey), read one way for events,
 * webhooks and look-ups. A missing cycle is taken from a key made by BillingIds.chargeKey
 * ("charge:&lt;subscription&gt;:&lt;cycle&gt;:&lt;attempt&gt;").
 */
public final class StripeMetadata {
  /** A whole number that fits a long whatever its digits. */
  private static final Pattern DIGITS = Pattern.compile("[0-9]{1,18}");

  private StripeMetadata() {}

  /**
   * @param idempotencyKey null when the metadata does not carry it
   */
  public record Owner(String subscriptionId, Long cycle, String idempotencyKey) {}

  /** Null unless the metadata names a subscription; the cycle may still be null. */
  public static Owner ours(Map<String, String> metadata) {
    if (metadata == null) {
      return null;
    }
    String subscription = blankToNull(metadata.get(GatewayChargeRequest.SUBSCRIPTION_ID));
    if (subscription == null) {
      return null;
    }
    String key = blankToNull(metadata.get(GatewayChargeRequest.IDEMPOTENCY_KEY));
    String cycle = metadata.get(GatewayChargeRequest.CYCLE);
    Long parsed =
        cycle != null && DIGITS.matcher(cycle).matches()
            ? Long.valueOf(cycle)
            : BillingIds.cycleOfChargeKey(key, subscription);
    return new Owner(subscription, parsed, key);
  }

  private static String blankToNull(String value) {
    return value == null || value.isEmpty() ? null : value;
  }
}
