package dev.billing.api.webhooks;

import static dev.billing.api.webhooks.EventJson.put;
import static dev.billing.api.webhooks.EventJson.putMessage;
import static dev.billing.api.webhooks.EventJson.text;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.domain.BillingIds;
import dev.billing.domain.ChargeRefund;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentEvent;
import dev.billing.store.events.StoredEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sandbox gateway's events (wire format: SandboxWebhooks in the activities module,
 * docs/payments.md, "Webhooks"): our charge fields sit flat in {@code data}, and each type names
 * its outcome directly.
 */
final class SandboxEvents implements WebhookProvider {
  static final String HEADER = "Sandbox-Signature";

  private static final Map<String, PaymentEvent.Type> TYPES =
      Map.of(
          "charge.succeeded", PaymentEvent.Type.CHARGE_SUCCEEDED,
          "charge.failed", PaymentEvent.Type.CHARGE_FAILED,
          "charge.returned", PaymentEvent.Type.CHARGE_RETURNED,
          "charge.refunded", PaymentEvent.Type.CHARGE_REFUNDED,
          "charge.dispute.created", PaymentEvent.Type.CHARGE_DISPUTED,
          "charge.dispute.won", PaymentEvent.Type.DISPUTE_WON);

  @Override
  public String name() {
    return SANDBOX;
  }

  @Override
  public String signatureHeader() {
    return HEADER;
  }

  @Override
  public WebhookSignatures.Verdict verify(
      SignatureHeader header, byte[] body, byte[] secret, Instant now) {
    return WebhookSignatures.verify(header, body, secret, now);
  }

  @Override
  public ParsedEvent parse(byte[] body, Instant receivedAt) {
    JsonNode event = EventJson.read(body);
    String eventId = EventJson.required(event, "id");
    String type = EventJson.required(event, "type");
    Instant occurredAt = EventJson.created(event);
    JsonNode data = event.path("data");

    String subscriptionId = text(data, "subscriptionId");
    String idempotencyKey = text(data, "idempotencyKey");
    String transactionId = text(data, "transactionId");
    Long cycle = EventJson.wholeNumber(data, "cycle");
    if (cycle == null) {
      cycle = BillingIds.cycleOfChargeKey(idempotencyKey, subscriptionId);
    }
    String failureCode = text(data, "failureCode");
    String failureMessage = text(data, "failureMessage");
    Map<String, String> summary = new LinkedHashMap<>();
    put(summary, "amount", text(data, "amount"));
    put(summary, "currency", text(data, "currency"));
    put(summary, "failureCode", failureCode);
    putMessage(summary, "failureMessage", failureMessage);

    PaymentEvent.Type outcome = TYPES.get(type);
    StoredEvent stored =
        new StoredEvent(
            SANDBOX,
            eventId,
            type,
            outcome,
            subscriptionId,
            cycle,
            idempotencyKey,
            transactionId,
            occurredAt,
            receivedAt,
            summary);
    if (outcome == null) {
      return ParsedEvent.storedOnly(stored, "type " + type + " is not a charge outcome");
    }
    if (subscriptionId == null || cycle == null) {
      return ParsedEvent.storedOnly(stored, "the charge carries no subscription id and cycle");
    }
    return ParsedEvent.signalled(
        stored,
        new PaymentEvent(
            eventId,
            SANDBOX,
            outcome,
            subscriptionId,
            cycle,
            idempotencyKey,
            transactionId,
            failureCode,
            summary.get("failureMessage"),
            occurredAt,
            moves(outcome) ? money(text(data, "amount"), text(data, "currency")) : null,
            outcome == PaymentEvent.Type.CHARGE_REFUNDED
                ? refunds(data.path("refunds"), text(data, "currency"))
                : List.of()));
  }

  /** The events whose amount is what moved (refunded in all, or disputed), not the charge's. */
  private static boolean moves(PaymentEvent.Type outcome) {
    return outcome == PaymentEvent.Type.CHARGE_REFUNDED
        || outcome == PaymentEvent.Type.CHARGE_DISPUTED
        || outcome == PaymentEvent.Type.DISPUTE_WON;
  }

  private static List<ChargeRefund> refunds(JsonNode listed, String currency) {
    if (listed.isMissingNode() || listed.isNull()) {
      return List.of();
    }
    if (!listed.isArray()) {
      throw new WebhookPayloadException("data.refunds is not a list");
    }
    List<ChargeRefund> refunds = new ArrayList<>();
    for (JsonNode refund : listed) {
      String id = text(refund, "id");
      if (id == null) {
        throw new WebhookPayloadException("a refund in data.refunds has no id");
      }
      Long created = EventJson.wholeNumber(refund, "created");
      refunds.add(
          new ChargeRefund(
              id,
              money(text(refund, "amount"), currency),
              text(refund, "idempotencyKey"),
              created == null ? null : Instant.ofEpochSecond(created)));
    }
    return refunds;
  }

  private static Money money(String amount, String currency) {
    if (amount == null || currency == null) {
      throw new WebhookPayloadException("the event names no amount and currency");
    }
    try {
      return Money.parse(amount, currency);
    } catch (RuntimeException e) {
      throw new WebhookPayloadException(
          "the amount " + amount + " " + currency + " cannot be read");
    }
  }
}
