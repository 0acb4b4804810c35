package dev.billing.workflows;

import dev.billing.domain.PaymentMethod;

/**
 * A charge key that was sent (or that a lost run may have sent) and the payment method it went to.
 * A gateway lists a key's charges by the customer of the method it was sent to (Stripe narrows a
 * list by customer): looked up under a later method, a charge that was made reads NOT_FOUND.
 */
public record SentKey(long cycle, String key, PaymentMethod paymentMethod) {}
