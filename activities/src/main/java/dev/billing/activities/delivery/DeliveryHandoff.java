package dev.billing.activities.delivery;

import dev.billing.domain.RecordInput;

/**
 * What the record activities do once a change is committed (or found committed by an earlier
 * attempt): hand its events to delivery. Never throws: billing goes on whatever delivery does.
 */
public interface DeliveryHandoff {
  void committed(RecordInput change);

  /** No delivery on this stack: the events stay owed in the outbox. */
  DeliveryHandoff NONE = change -> {};
}
