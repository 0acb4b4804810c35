package dev.billing.domain.reconciliation;

import java.time.Instant;
import java.util.Objects;

/**
 * One thing a reconciliation run found, and what it did about it.
 *
 * @param subscriptionId null when the finding is about no known subscription (a foreign event)
 * @param accountId null when unknown
 * @param cycle the period concerned; null when none
 * @param reference the gateway's transaction or event id, or the workflow id; null when none
 * @param detail a sentence an operator can act on
 * @param at when the run found it (the run's time)
 */
public record Finding(
    FindingKind kind,
    String subscriptionId,
    String accountId,
    Long cycle,
    String reference,
    String detail,
    Repair repair,
    Instant at) {

  public Finding {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(detail, "detail");
    Objects.requireNonNull(repair, "repair");
    Objects.requireNonNull(at, "at");
  }

  /**
   * Stable across retries of the step that found it: the same finding is stored once per run. Kind,
   * then subscription, then cycle and reference.
   */
  public String key() {
    return kind
        + "#"
        + (subscriptionId == null ? "-" : subscriptionId)
        + "#"
        + (cycle == null ? "-" : cycle)
        + "#"
        + (reference == null ? "-" : reference);
  }
}
