package dev.billing.store;

import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Process;
import dev.billing.domain.Subscription;
import java.time.Instant;
import java.util.List;

/**
 * One append-only history item: the full snapshot after the change, plus what changed and why.
 *
 * @param changes the fields whose stored value differs from the previous snapshot
 * @param cycle the billing cycle the change belongs to
 */
public record HistoryEntry(
    String subscriptionId,
    String accountId,
    Instant at,
    long version,
    HistoryEvent event,
    Process process,
    String actor,
    String detail,
    long cycle,
    List<FieldChange> changes,
    Subscription snapshot) {

  /**
   * @param from null when the field was absent
   * @param to null when the field was removed
   */
  public record FieldChange(String field, String from, String to) {}
}
