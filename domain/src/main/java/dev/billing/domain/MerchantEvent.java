package dev.billing.domain;

import java.util.Objects;

/**
 * One event derived from a recorded change ({@link MerchantEvents#of}).
 *
 * @param subscription the subscription as recorded by the change
 * @param period the period the change wrote, on payment events about a period's money; else null
 * @param receipt the receipt the change wrote, on payment events that have one (a collected period,
 *     an upgrade's charge, the reversal of a returned upgrade charge); else null
 */
public record MerchantEvent(
    MerchantEventType type, Subscription subscription, Period period, Receipt receipt) {

  public MerchantEvent {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(subscription, "subscription");
  }
}
