package dev.billing.workflows;

import dev.billing.domain.PaymentEvent;
import java.util.List;

/**
 * What collecting payments needs to remember from one run to the next: periods not settled yet,
 * recently settled ones (for returns), the ids of payment events already seen (for duplicates),
 * events accepted but not acted on yet (a signal that landed just before continue-as-new), periods
 * whose dunning ended unpaid (for manual repayment, waivers and the stale age), the charge keys a
 * lost run may have sent without recording them (a run restarted from the record looks each up
 * before it sends it), recently returned charges (their success event, late or sent again, must not
 * collect a period), and the payment method each key of a period still being collected was sent to
 * (it is looked up under that method). Bounded, so the continue-as-new input stays small.
 */
public record CollectionState(
    List<OpenPeriod> open,
    List<SettledCharge> settled,
    List<String> seenEventIds,
    List<PaymentEvent> pendingEvents,
    List<UnpaidPeriod> unpaid,
    List<String> unverifiedKeys,
    List<SettledCharge> returned,
    List<SentKey> sentKeys) {

  public static final CollectionState EMPTY =
      new CollectionState(
          List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of());

  public CollectionState {
    open = open == null ? List.of() : List.copyOf(open);
    settled = settled == null ? List.of() : List.copyOf(settled);
    seenEventIds = seenEventIds == null ? List.of() : List.copyOf(seenEventIds);
    pendingEvents = pendingEvents == null ? List.of() : List.copyOf(pendingEvents);
    unpaid = unpaid == null ? List.of() : List.copyOf(unpaid);
    unverifiedKeys = unverifiedKeys == null ? List.of() : List.copyOf(unverifiedKeys);
    returned = returned == null ? List.of() : List.copyOf(returned);
    sentKeys = sentKeys == null ? List.of() : List.copyOf(sentKeys);
  }
}
