package dev.billing.domain;

import java.time.Instant;
import java.util.Objects;

/**
 * One change of a subscription, written atomically: the new subscription item, the history entry
 * and, when given, the period and the receipt.
 *
 * @param changeId stable across retries of the same change (e.g. "cycle-3/charge-1"); makes a retry
 *     that already committed a no-op
 * @param previous the subscription before the change; null when it is created
 * @param next the subscription after the change; its version is the one written
 * @param actor who caused it: "system" for the schedule, the API principal otherwise
 * @param detail a sentence for the history, e.g. the decline reason
 * @param at workflow time of the change
 */
public record RecordInput(
    String changeId,
    Subscription previous,
    Subscription next,
    HistoryEvent event,
    Process process,
    String actor,
    String detail,
    Period period,
    Receipt receipt,
    Instant at) {

  public RecordInput {
    Objects.requireNonNull(changeId, "changeId");
    Objects.requireNonNull(next, "next");
    Objects.requireNonNull(event, "event");
    Objects.requireNonNull(process, "process");
    Objects.requireNonNull(actor, "actor");
    Objects.requireNonNull(at, "at");
  }
}
