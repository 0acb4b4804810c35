package dev.billing.activities.views;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.billing.store.OutboxEvent;

/**
 * A merchant event as the API lists it, in the shape it is delivered: what happened ({@code type})
 * and the records the change wrote ({@code data}), as they were written.
 *
 * @param id unique; a product de-duplicates by it, since delivery is at least once
 * @param createdAt the time of the change
 */
public record EventView(String id, String type, String createdAt, Data data) {

  /**
   * @param subscription the subscription as the change recorded it
   * @param period the period the change wrote, on payment events about a period; else null
   * @param receipt the receipt the change wrote, on payment events that have one; else null
   */
  public record Data(SubscriptionView subscription, PeriodView period, ReceiptView receipt) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The body of a delivery: this view as JSON, UTF-8, fields in declaration order, nulls kept. */
  public static byte[] json(OutboxEvent event) {
    try {
      return JSON.writeValueAsBytes(of(event));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("event " + event.id() + " does not serialise", e);
    }
  }

  public static EventView of(OutboxEvent event) {
    return new EventView(
        event.id(),
        event.type().wireName(),
        Timestamps.instant(event.createdAt()),
        new Data(
            SubscriptionView.of(event.subscription()),
            event.period() == null ? null : PeriodView.of(event.period()),
            event.receipt() == null ? null : ReceiptView.of(event.receipt())));
  }
}
