package dev.billing.activities.payments.sandbox;

import dev.billing.activities.payments.GatewayEvent;
import dev.billing.domain.ChargeRefund;
import dev.billing.domain.Money;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The events the sandbox's charges and refunds amount to by a given time, as Stripe would have sent
 * them: a charge's success or decline when made (a bank debit's at settlement), its dispute and the
 * dispute lost, a debit's return, and each refund with the charge's refunded total so far. Nothing
 * is stored: they follow from the {@link SandboxBook} and the clock, so the ids stay the same
 * however often they are read. Charges without our metadata tell no subscription anything and have
 * none.
 */
final class SandboxEvents {
  private SandboxEvents() {}

  /** The events in {@code [from, to)} that have occurred by {@code now}, oldest first. */
  static List<GatewayEvent> between(SandboxBook book, Instant from, Instant to, Instant now) {
    List<GatewayEvent> events = new ArrayList<>();
    for (SandboxCharge c : book.charges()) {
      if (c.subscriptionId() == null || c.cycle() == null) {
        continue; // not one of ours: nothing to tell a subscription
      }
      switch (c.outcome()) {
        case SUCCEEDED -> {
          events.add(event(book, c, GatewayEvent.Type.SUCCEEDED, c.at(), null, null));
          if (c.disputedAt() != null) {
            events.add(
                event(
                    book,
                    c,
                    GatewayEvent.Type.DISPUTED,
                    c.disputedAt(),
                    SandboxPaymentMethods.DISPUTE_REASON,
                    "disputed: " + SandboxPaymentMethods.DISPUTE_REASON));
            events.add(
                event(
                    book,
                    c,
                    GatewayEvent.Type.RETURNED,
                    c.disputeLostAt(),
                    SandboxPaymentMethods.DISPUTE_LOST_CODE,
                    "dispute lost: " + SandboxPaymentMethods.DISPUTE_REASON));
          }
        }
        case DECLINED ->
            events.add(
                event(
                    book,
                    c,
                    GatewayEvent.Type.FAILED,
                    c.at(),
                    c.declineCode(),
                    c.declineMessage()));
        case PENDING -> {
          events.add(event(book, c, GatewayEvent.Type.SUCCEEDED, c.settlesAt(), null, null));
          if (c.returnsAt() != null) {
            events.add(
                event(
                    book,
                    c,
                    GatewayEvent.Type.RETURNED,
                    c.returnsAt(),
                    SandboxPaymentMethods.RETURN_CODE,
                    SandboxPaymentMethods.RETURN_MESSAGE));
          }
        }
      }
    }
    Map<String, Money> refundedSoFar = new HashMap<>();
    Map<String, List<ChargeRefund>> listedSoFar = new HashMap<>();
    for (SandboxRefund r : book.refunds()) {
      SandboxCharge c = book.charge(r.transactionId());
      Money total = refundedSoFar.merge(r.transactionId(), r.amount(), Money::plus);
      List<ChargeRefund> listed =
          listedSoFar.computeIfAbsent(r.transactionId(), t -> new ArrayList<>());
      listed.add(SandboxBook.listed(r));
      if (c.subscriptionId() != null && c.cycle() != null) {
        events.add(
            new GatewayEvent(
                SandboxIds.eventId(
                    r.idempotencyKey(), GatewayEvent.Type.REFUNDED, book.sequenceOf(r)),
                GatewayEvent.Type.REFUNDED,
                r.at(),
                c.idempotencyKey(),
                c.transactionId(),
                c.subscriptionId(),
                c.cycle(),
                total,
                null,
                null,
                listed));
      }
    }
    return events.stream()
        .filter(e -> SandboxBook.within(e.occurredAt(), from, to) && !e.occurredAt().isAfter(now))
        .sorted(Comparator.comparing(GatewayEvent::occurredAt).thenComparing(GatewayEvent::id))
        .toList();
  }

  private static GatewayEvent event(
      SandboxBook book,
      SandboxCharge c,
      GatewayEvent.Type type,
      Instant at,
      String code,
      String message) {
    return new GatewayEvent(
        SandboxIds.eventId(c.idempotencyKey(), type, book.sequenceOf(c)),
        type,
        at,
        c.idempotencyKey(),
        c.transactionId(),
        c.subscriptionId(),
        c.cycle(),
        c.amount(),
        code,
        message);
  }
}
