package dev.billing.domain;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Which refunds of a charge, as the gateway reports them, a period does not record yet: refunds
 * made in the gateway's dashboard, outside billing's calls. One rule for the workflow that records
 * them, the restart after the end and reconciliation, so they agree on what is missing.
 *
 * <p>The gateway's running total refunded of the charge is the bound: what the period records as
 * refunded of it never goes above that total, so a refund reported twice (a webhook redelivered,
 * the replay of missed events, reconciliation, a list read after a total) is counted once whatever
 * its form. Within the bound, each listed refund is recorded under its gateway id, unless the
 * period already holds that id or the refund carries one of the period's own keys (billing made it;
 * the request that sent it records it). What the total shows beyond the named refunds is recorded
 * as one unnamed refund, but never while a refund of billing's of the same charge is without an
 * answer: that refund may be the difference, and its re-send records it.
 */
public final class GatewayRefunds {
  private GatewayRefunds() {}

  /** The key of a refund made at the gateway, recorded on the period under its gateway id. */
  public static String key(String refundId) {
    return "gateway-refund:" + refundId;
  }

  /**
   * The refunds to add to {@code period}, oldest first; empty when it records them all (or the
   * event says nothing the period can take).
   *
   * @param transactionId the charge refunded: the period's own, or an upgrade's charged within it
   * @param gatewayTotal everything the gateway has refunded of that charge
   * @param listed the charge's refunds as listed with the total; may be empty
   * @param at when the gateway reported them, for refunds listed without a time
   */
  public static List<PeriodRefund> unrecorded(
      Period period,
      String transactionId,
      Money gatewayTotal,
      List<ChargeRefund> listed,
      Instant at) {
    Objects.requireNonNull(period, "period");
    Objects.requireNonNull(at, "at");
    if (transactionId == null || gatewayTotal == null) {
      return List.of();
    }
    String currency = period.amount().currency();
    if (!currency.equals(gatewayTotal.currency())) {
      return List.of();
    }
    long room = gatewayTotal.minor() - recorded(period, transactionId).minor();
    if (room <= 0) {
      return List.of();
    }
    List<PeriodRefund> added = new ArrayList<>();
    List<ChargeRefund> byAge = new ArrayList<>(listed == null ? List.of() : listed);
    byAge.sort(
        Comparator.comparing(
            (ChargeRefund r) -> r.createdAt() == null ? at : r.createdAt(),
            Comparator.naturalOrder()));
    for (ChargeRefund refund : byAge) {
      if (!currency.equals(refund.amount().currency())
          || refund.amount().minor() <= 0
          || refund.amount().minor() > room
          || recordsId(period, refund.refundId())
          || (refund.idempotencyKey() != null && period.refund(refund.idempotencyKey()) != null)) {
        continue;
      }
      added.add(
          new PeriodRefund(
              key(refund.refundId()),
              null,
              transactionId,
              refund.amount(),
              refund.createdAt() == null ? at : refund.createdAt(),
              refund.refundId()));
      room -= refund.amount().minor();
    }
    if (room > 0 && !awaitsAnswer(period, transactionId)) {
      // The total shows more than the refunds named: one refund under a name the total makes
      // unique, so the same total read again adds nothing.
      String name = "total-" + transactionId + "-" + gatewayTotal.minor();
      added.add(
          new PeriodRefund(key(name), null, transactionId, new Money(room, currency), at, name));
    }
    return added;
  }

  /**
   * What the period records as refunded of the charge: its running total for its own charge, the
   * made refunds of another (an upgrade's).
   */
  public static Money recorded(Period period, String transactionId) {
    String currency = period.amount().currency();
    if (transactionId.equals(period.transactionId())) {
      return period.refunded() == null ? Money.zero(currency) : period.refunded();
    }
    Money total = Money.zero(currency);
    for (PeriodRefund refund : period.refunds()) {
      if (refund.made() && refund.transactionId().equals(transactionId)) {
        total = total.plus(refund.amount());
      }
    }
    return total;
  }

  private static boolean recordsId(Period period, String refundId) {
    return period.refunds().stream().anyMatch(r -> refundId.equals(r.refundId()));
  }

  private static boolean awaitsAnswer(Period period, String transactionId) {
    return period.refunds().stream()
        .anyMatch(r -> !r.made() && r.transactionId().equals(transactionId));
  }
}
