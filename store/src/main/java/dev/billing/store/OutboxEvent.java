package dev.billing.store;

import dev.billing.domain.MerchantEventType;
import dev.billing.domain.Period;
import dev.billing.domain.Receipt;
import dev.billing.domain.Subscription;
import java.time.Instant;
import java.util.Objects;

/**
 * One merchant event as the outbox holds it: written with the change it tells of, never without.
 *
 * @param id {@code evt_<subscription>_<version>_<n>}: the change's version and the event's place in
 *     it, so a retried write of the change writes the same ids
 * @param createdAt the time of the change (workflow time)
 * @param subscription the subscription as recorded by the change
 * @param period the period the change wrote, on payment events about a period; else null
 * @param receipt the receipt the change wrote, on payment events that have one; else null
 * @param undelivered the index key while delivery still owes the event to someone; null after
 */
public record OutboxEvent(
    String id,
    MerchantEventType type,
    String accountId,
    String subscriptionId,
    long version,
    int sequence,
    Instant createdAt,
    Subscription subscription,
    Period period,
    Receipt receipt,
    String undelivered) {

  public OutboxEvent {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(accountId, "accountId");
    Objects.requireNonNull(subscriptionId, "subscriptionId");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(subscription, "subscription");
  }
}
