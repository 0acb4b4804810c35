package dev.billing.activities.payments.stripe;

import com.stripe.model.StripeObject;
import com.stripe.net.RequestOptions;

/**
 * How a request that moves money carries its idempotency key to Stripe (the {@code Idempotency-Key}
 * header), and how Stripe's answer says it was replayed from the key's first request rather than
 * executed again.
 */
final class IdempotentRequests {
  static final String REPLAYED_HEADER = "Idempotent-Replayed";

  private IdempotentRequests() {}

  static RequestOptions idempotent(String key) {
    return RequestOptions.builder().setIdempotencyKey(key).build();
  }

  static boolean replayed(StripeObject response) {
    return response.getLastResponse() != null
        && response
            .getLastResponse()
            .headers()
            .firstValue(REPLAYED_HEADER)
            .map("true"::equalsIgnoreCase)
            .orElse(false);
  }
}
