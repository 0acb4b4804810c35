package dev.billing.workflows;

import dev.billing.domain.PaymentMethod;
import java.time.Instant;

/**
 * A charge key that was sent (or that a lost run may have sent) and the payment method it went to.
 * A gateway lists a key's charges by the customer of the method it was sent to (Stripe narrows a
 * list by customer): looked up under a later method, a charge that was made reads NOT_FOUND.
 *
 * @param sentBy when this run's last send of the key ended (answered or given up on); null while it
 *     is in flight, or when not known (a key of a run restarted from the record). A list read
 *     {@link DunningSchedule#RESOLVE_AFTER} later that finds no charge proves the key made none.
 */
public record SentKey(long cycle, String key, PaymentMethod paymentMethod, Instant sentBy) {}
