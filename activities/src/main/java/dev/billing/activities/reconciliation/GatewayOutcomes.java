package dev.billing.activities.reconciliation;

import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayEvent;
import dev.billing.domain.PaymentEvent;
import dev.billing.store.events.StoredEvent;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Gateway answers as the payment events the subscription workflow takes. Events the gateway listed
 * keep their own ids, so a replay and the webhook it stands for are one event; an outcome read from
 * a charge (no event at hand) gets a deterministic id of its own, "reconciliation:" + transaction +
 * status, which the workflow deduplicates like any other.
 */
public final class GatewayOutcomes {
  private GatewayOutcomes() {}

  static PaymentEvent.Type type(GatewayEvent.Type type) {
    return switch (type) {
      case SUCCEEDED -> PaymentEvent.Type.CHARGE_SUCCEEDED;
      case FAILED -> PaymentEvent.Type.CHARGE_FAILED;
      case RETURNED -> PaymentEvent.Type.CHARGE_RETURNED;
      case REFUNDED -> PaymentEvent.Type.CHARGE_REFUNDED;
      case DISPUTED -> PaymentEvent.Type.CHARGE_DISPUTED;
      case DISPUTE_WON -> PaymentEvent.Type.DISPUTE_WON;
    };
  }

  /** The signal a listed gateway event stands for. */
  public static PaymentEvent signal(String provider, GatewayEvent event) {
    return new PaymentEvent(
        event.id(),
        provider,
        type(event.type()),
        event.subscriptionId(),
        event.cycle(),
        event.idempotencyKey(),
        event.transactionId(),
        event.failureCode(),
        StoredEvent.redactCardNumbers(event.failureMessage()),
        event.occurredAt(),
        carriesAmount(event.type()) ? event.amount() : null,
        event.refunds());
  }

  /** The events whose amount is not the charge's: what was refunded, or disputed. */
  private static boolean carriesAmount(GatewayEvent.Type type) {
    return type == GatewayEvent.Type.REFUNDED
        || type == GatewayEvent.Type.DISPUTED
        || type == GatewayEvent.Type.DISPUTE_WON;
  }

  /**
   * The refund a charge's refunded total shows, as the webhook would have told it: the total, and
   * the refunds the gateway listed with it. Its id names the total, so a later run that finds the
   * same total sends the same event, which the workflow deduplicates; a larger total is news.
   */
  static PaymentEvent refunded(String provider, GatewayChargeState charge, Instant at) {
    if (charge.subscriptionId() == null || charge.cycle() == null || charge.refunded() == null) {
      return null;
    }
    return new PaymentEvent(
        "reconciliation:" + charge.transactionId() + ":refunded:" + charge.refunded().minor(),
        provider,
        PaymentEvent.Type.CHARGE_REFUNDED,
        charge.subscriptionId(),
        charge.cycle(),
        charge.idempotencyKey(),
        charge.transactionId(),
        null,
        null,
        at,
        charge.refunded(),
        charge.refunds());
  }

  /** The payment-events item a listed gateway event is stored as, as a webhook would store it. */
  public static StoredEvent stored(String provider, GatewayEvent event, Instant receivedAt) {
    Map<String, String> summary = new LinkedHashMap<>();
    summary.put("amount", event.amount().toPlainString());
    summary.put("currency", event.amount().currency());
    if (event.failureCode() != null) {
      summary.put("failureCode", event.failureCode());
    }
    if (event.failureMessage() != null) {
      String message = StoredEvent.redactCardNumbers(event.failureMessage());
      summary.put("failureMessage", message.length() > 500 ? message.substring(0, 500) : message);
    }
    summary.put("receivedBy", "reconciliation");
    return new StoredEvent(
        provider,
        event.id(),
        event.type().wireName(),
        type(event.type()),
        event.subscriptionId(),
        event.cycle(),
        event.idempotencyKey(),
        event.transactionId(),
        event.occurredAt(),
        receivedAt,
        summary);
  }

  /**
   * The event a charge's current state amounts to; null when it says nothing the workflow can act
   * on (not found, pending, or not one of ours).
   */
  static PaymentEvent event(String provider, GatewayChargeState charge, Instant at) {
    if (charge.subscriptionId() == null || charge.cycle() == null) {
      return null;
    }
    PaymentEvent.Type type =
        switch (charge.status()) {
          case SUCCEEDED -> PaymentEvent.Type.CHARGE_SUCCEEDED;
          case FAILED -> PaymentEvent.Type.CHARGE_FAILED;
          case RETURNED -> PaymentEvent.Type.CHARGE_RETURNED;
          case NOT_FOUND, PENDING -> null;
        };
    if (type == null) {
      return null;
    }
    Instant occurred =
        charge.returnedAt() != null
            ? charge.returnedAt()
            : charge.settledAt() != null ? charge.settledAt() : charge.createdAt();
    return new PaymentEvent(
        "reconciliation:" + charge.transactionId() + ":" + type.name().toLowerCase(),
        provider,
        type,
        charge.subscriptionId(),
        charge.cycle(),
        charge.idempotencyKey(),
        charge.transactionId(),
        charge.failureCode(),
        StoredEvent.redactCardNumbers(charge.failureMessage()),
        occurred != null ? occurred : at);
  }

  /**
   * What a finding says of a signal it sent: only that it was sent. The workflow judges the event
   * by its own state, after whatever activity it is in, so the run cannot know the effect.
   */
  static String signalled(PaymentEvent event) {
    return "signalled "
        + event.type()
        + " ("
        + event.eventId()
        + "); effect decided by the workflow,"
        + " which acts only on a period it holds open: the next run finds this again if nothing changed";
  }

  /** What a finding says when the workflow already holds the event and the gap is still there. */
  static String unchanged(PaymentEvent event) {
    return "the workflow's run already received "
        + event.eventId()
        + ": the signal changed nothing"
        + " (not sent again); the workflow is stuck or does not hold the period open, see its pending"
        + " activity and state query";
  }
}
