package dev.billing.workflows.activities;

import java.util.Objects;

/** Which charge attempt to ask the gateway about: the idempotency key it was sent with. */
public record ChargeLookupInput(String subscriptionId, long cycle, String idempotencyKey) {
  public ChargeLookupInput {
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
  }
}
