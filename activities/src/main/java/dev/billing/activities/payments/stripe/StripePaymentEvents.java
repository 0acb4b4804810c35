package dev.billing.activities.payments.stripe;

import com.stripe.model.Charge;
import com.stripe.model.Dispute;
import com.stripe.model.Event;
import com.stripe.model.MetadataStore;
import com.stripe.model.PaymentIntent;
import com.stripe.model.Refund;
import com.stripe.model.StripeObject;
import dev.billing.domain.BankDebitReturns;
import dev.billing.domain.ChargeRefund;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one reading of a Stripe event as a payment event, for the webhook intake and for {@link
 * StripeGateway#listEvents} (the replay of missed webhooks) alike, so an event means the same
 * whichever way it arrived. Our charges are PaymentIntents whose metadata holds subscriptionId,
 * cycle and idempotencyKey; the transaction id is the PaymentIntent's id, whichever object the
 * event is about.
 *
 * <ul>
 *   <li>{@code payment_intent.succeeded}: CHARGE_SUCCEEDED (for a bank debit, it settled).
 *   <li>{@code payment_intent.payment_failed}: CHARGE_FAILED, with the decline code.
 *   <li>{@code charge.refunded}: CHARGE_REFUNDED, amount = {@code amount_refunded} (everything
 *       refunded of the charge so far: a redelivery repeats it, a later refund raises it), with the
 *       Charge's refunds when the event embeds them (API versions before 2022-11-15), else as the
 *       reader lists them ({@link Lookups#refunds}); a refund carrying our {@code idempotencyKey}
 *       metadata is billing's own, one without was made in the dashboard.
 *   <li>{@code charge.dispute.created} of a bank debit (the disputed Charge's payment method type
 *       decides, {@link BankDebitReturns}): CHARGE_RETURNED, code = the network's return code (R01,
 *       R10) or else the dispute's reason. Stripe reports an ACH return as a dispute. Of a card: a
 *       chargeback, CHARGE_DISPUTED with the dispute's reason (the period waits for the decision;
 *       nothing is retried).
 *   <li>{@code charge.dispute.closed} of a card: won (or {@code warning_closed}, an inquiry that
 *       never became a chargeback) is DISPUTE_WON; lost is CHARGE_RETURNED with code {@code
 *       dispute_lost}, recorded as any returned payment. Of a bank debit: not signalled, its return
 *       was recorded when the dispute opened.
 *   <li>Anything else: not an outcome.
 * </ul>
 */
public final class StripePaymentEvents {
  public static final String DISPUTE_CREATED = "charge.dispute.created";
  public static final String DISPUTE_CLOSED = "charge.dispute.closed";

  /** The return code of a lost card dispute. */
  public static final String DISPUTE_LOST = "dispute_lost";

  private static final String REFUNDED = "charge.refunded";
  private static final String PAYMENT_FAILED = "payment_intent.payment_failed";
  private static final Map<String, PaymentEvent.Type> TYPES =
      Map.of(
          "payment_intent.succeeded",
          PaymentEvent.Type.CHARGE_SUCCEEDED,
          PAYMENT_FAILED,
          PaymentEvent.Type.CHARGE_FAILED,
          REFUNDED,
          PaymentEvent.Type.CHARGE_REFUNDED,
          DISPUTE_CREATED,
          PaymentEvent.Type.CHARGE_RETURNED,
          DISPUTE_CLOSED,
          PaymentEvent.Type.CHARGE_RETURNED);

  private StripePaymentEvents() {}

  /** One of the types billing acts on. */
  public static boolean isOutcomeType(String type) {
    return TYPES.containsKey(type);
  }

  /** What a reader may look up beyond the event; each reader has its own sources. */
  public interface Lookups {
    /**
     * The disputed Charge's payment method type and, if at hand, whose charge it is; empty when
     * this process cannot read Stripe.
     *
     * @throws RuntimeException when Stripe cannot be read now
     */
    Optional<DisputedCharge> disputedCharge(String chargeId);

    /** Whose charge a PaymentIntent is, for an object that lacks our metadata. */
    Optional<StripeMetadata.Owner> owner(String paymentIntentId);

    /**
     * The Charge's refunds, for a charge.refunded whose Charge does not embed them; empty when this
     * reader cannot list them (the refunded total then tells the workflow alone).
     *
     * @throws RuntimeException when Stripe cannot be read now
     */
    default List<ChargeRefund> refunds(String chargeId) {
      return List.of();
    }
  }

  /**
   * @param owner null when not read with the Charge
   */
  public record DisputedCharge(String paymentMethodType, StripeMetadata.Owner owner) {}

  /**
   * An event's object that this stripe-java cannot deserialize (rendered with an incompatible API
   * version): it cannot be read, so it must not be taken as read.
   */
  public static final class UnreadableObjectException extends RuntimeException {
    UnreadableObjectException(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * @param outcome null when the event is not a charge outcome billing acts on
   * @param unsignalled why a charge outcome is not one (a card dispute), else null
   * @param amountMinor in Stripe's minor unit of {@code currency}; for a refund, the refunded
   *     amount
   * @param details chargeId, disputeId, disputeReason, status, livemode, as present
   * @param refunds for CHARGE_REFUNDED the Charge's refunds as found; empty otherwise
   */
  public record Reading(
      String eventId,
      String type,
      Instant occurredAt,
      PaymentEvent.Type outcome,
      String unsignalled,
      String transactionId,
      String subscriptionId,
      Long cycle,
      String idempotencyKey,
      Long amountMinor,
      String currency,
      String failureCode,
      String failureMessage,
      Map<String, String> details,
      List<ChargeRefund> refunds) {

    /** True when it is an outcome of a charge we know the subscription and cycle of. */
    public boolean isOurs() {
      return outcome != null && subscriptionId != null && cycle != null;
    }

    /** What a refund or dispute event says moved; null for the other outcomes. */
    public Money movedAmount() {
      boolean moved =
          outcome == PaymentEvent.Type.CHARGE_REFUNDED
              || outcome == PaymentEvent.Type.CHARGE_DISPUTED
              || outcome == PaymentEvent.Type.DISPUTE_WON;
      return moved && amountMinor != null && currency != null
          ? StripeAmounts.fromStripe(amountMinor, currency)
          : null;
    }
  }

  /**
   * The event's object, as stripe-java reads it: safely when the event's API version is the
   * library's, else leniently (Stripe's fields read here are stable across versions).
   *
   * @throws UnreadableObjectException when it cannot be read either way
   */
  public static StripeObject dataObject(Event event) {
    Optional<StripeObject> safe;
    try {
      safe = event.getDataObjectDeserializer().getObject();
    } catch (RuntimeException noApiVersion) {
      safe = Optional.empty();
    }
    if (safe.isPresent()) {
      return safe.get();
    }
    try {
      StripeObject object = event.getDataObjectDeserializer().deserializeUnsafe();
      if (object == null) {
        throw new UnreadableObjectException("its data.object is of no type stripe-java knows");
      }
      return object;
    } catch (UnreadableObjectException e) {
      throw e;
    } catch (Exception e) {
      throw new UnreadableObjectException(
          "its data.object (API version "
              + event.getApiVersion()
              + ") cannot be read by stripe-java "
              + com.stripe.Stripe.VERSION
              + ": "
              + e.getMessage());
    }
  }

  public static Reading read(Event event, Lookups lookups) {
    String type = event.getType();
    StripeObject object = dataObject(event);
    Fields f = Fields.of(object, type);
    PaymentEvent.Type outcome = TYPES.get(type);
    String unsignalled = null;
    StripeMetadata.Owner owner = StripeMetadata.ours(f.metadata);
    if (object instanceof Dispute dispute
        && (DISPUTE_CREATED.equals(type) || DISPUTE_CLOSED.equals(type))) {
      Optional<DisputedCharge> charge =
          dispute.getCharge() == null
              ? Optional.empty()
              : lookups.disputedCharge(dispute.getCharge());
      String methodType = charge.map(DisputedCharge::paymentMethodType).orElse(null);
      if (methodType == null && dispute.getPaymentMethodDetails() != null) {
        methodType = dispute.getPaymentMethodDetails().getType();
      }
      boolean bankDebit =
          BankDebitReturns.isReturn(
              methodType, dispute.getNetworkReasonCode(), dispute.getCharge());
      if (DISPUTE_CREATED.equals(type)) {
        outcome = bankDebit ? PaymentEvent.Type.CHARGE_RETURNED : PaymentEvent.Type.CHARGE_DISPUTED;
      } else if (bankDebit) {
        outcome = null;
        unsignalled = "a bank debit's return is recorded when its dispute opens";
      } else {
        outcome = closed(dispute.getStatus());
        if (outcome == PaymentEvent.Type.CHARGE_RETURNED) {
          f.failureCode = DISPUTE_LOST;
          f.failureMessage =
              "dispute lost: "
                  + (dispute.getReason() != null ? dispute.getReason() : "no reason given");
        } else if (outcome == null) {
          unsignalled = "a dispute closed as " + dispute.getStatus() + " moves no money";
        }
      }
      if (outcome != null && owner == null && charge.isPresent()) {
        owner = charge.get().owner();
      }
    }
    List<ChargeRefund> refunds = List.of();
    if (object instanceof Charge refundedCharge && REFUNDED.equals(type)) {
      refunds = refundsOf(refundedCharge, lookups);
    }
    // A PaymentIntent's own metadata is all there is of it; a Charge or dispute without ours (a
    // dispute never has it) belongs to its PaymentIntent.
    if (outcome != null
        && owner == null
        && f.transactionId != null
        && !(object instanceof PaymentIntent)) {
      owner = lookups.owner(f.transactionId).orElse(null);
    }
    return new Reading(
        event.getId(),
        type,
        Instant.ofEpochSecond(event.getCreated()),
        outcome,
        unsignalled,
        f.transactionId,
        owner == null ? null : owner.subscriptionId(),
        owner == null ? null : owner.cycle(),
        owner == null ? null : owner.idempotencyKey(),
        f.amount,
        f.currency,
        f.failureCode,
        f.failureMessage,
        f.details,
        refunds);
  }

  /** A closed card dispute's outcome: won collects again, lost takes the money back. */
  private static PaymentEvent.Type closed(String status) {
    return switch (String.valueOf(status)) {
      case "won", "warning_closed" -> PaymentEvent.Type.DISPUTE_WON;
      case "lost" -> PaymentEvent.Type.CHARGE_RETURNED;
      default -> null;
    };
  }

  /**
   * The Charge's refunds that moved money (not failed or canceled), as embedded in the event when
   * it embeds them all, else as the reader lists them.
   */
  private static List<ChargeRefund> refundsOf(Charge charge, Lookups lookups) {
    if (charge.getRefunds() == null
        || charge.getRefunds().getData() == null
        || Boolean.TRUE.equals(charge.getRefunds().getHasMore())) {
      return charge.getId() == null ? List.of() : lookups.refunds(charge.getId());
    }
    List<ChargeRefund> refunds = new ArrayList<>();
    for (Refund refund : charge.getRefunds().getData()) {
      ChargeRefund read = refund(refund);
      if (read != null) {
        refunds.add(read);
      }
    }
    return refunds;
  }

  /** One Refund as the port reads it; null when it moved no money or cannot be read. */
  public static ChargeRefund refund(Refund refund) {
    if (refund.getId() == null
        || refund.getAmount() == null
        || refund.getCurrency() == null
        || "failed".equals(refund.getStatus())
        || "canceled".equals(refund.getStatus())) {
      return null;
    }
    String key =
        refund.getMetadata() == null
            ? null
            : refund
                .getMetadata()
                .get(dev.billing.activities.payments.GatewayChargeRequest.IDEMPOTENCY_KEY);
    return new ChargeRefund(
        refund.getId(),
        StripeAmounts.fromStripe(refund.getAmount(), refund.getCurrency()),
        key,
        refund.getCreated() == null ? null : Instant.ofEpochSecond(refund.getCreated()));
  }

  /** The fields read from each kind of object. */
  private static final class Fields {
    String transactionId;
    Map<String, String> metadata;
    Long amount;
    String currency;
    String failureCode;
    String failureMessage;
    final Map<String, String> details = new LinkedHashMap<>();

    static Fields of(StripeObject object, String type) {
      Fields f = new Fields();
      if (object instanceof PaymentIntent intent) {
        f.transactionId = intent.getId();
        f.metadata = intent.getMetadata();
        f.amount = intent.getAmount();
        f.currency = intent.getCurrency();
        f.put("chargeId", intent.getLatestCharge());
        f.put("status", intent.getStatus());
        f.put("livemode", intent.getLivemode());
        if (PAYMENT_FAILED.equals(type) && intent.getLastPaymentError() != null) {
          f.failureCode = StripePaymentIntents.failureCode(intent.getLastPaymentError());
          f.failureMessage = intent.getLastPaymentError().getMessage();
        }
      } else if (object instanceof Charge charge) {
        f.transactionId =
            charge.getPaymentIntent() != null ? charge.getPaymentIntent() : charge.getId();
        f.metadata = charge.getMetadata();
        f.amount = REFUNDED.equals(type) ? charge.getAmountRefunded() : charge.getAmount();
        f.currency = charge.getCurrency();
        f.put("chargeId", charge.getId());
        f.put("status", charge.getStatus());
        f.put("livemode", charge.getLivemode());
        f.failureCode = charge.getFailureCode();
        f.failureMessage = charge.getFailureMessage();
      } else if (object instanceof Dispute dispute) {
        f.transactionId =
            dispute.getPaymentIntent() != null ? dispute.getPaymentIntent() : dispute.getCharge();
        f.metadata = dispute.getMetadata();
        f.amount = dispute.getAmount();
        f.currency = dispute.getCurrency();
        f.put("chargeId", dispute.getCharge());
        f.put("disputeId", dispute.getId());
        f.put("disputeReason", dispute.getReason());
        f.put("status", dispute.getStatus());
        f.put("livemode", dispute.getLivemode());
        f.failureCode =
            dispute.getNetworkReasonCode() != null
                ? dispute.getNetworkReasonCode()
                : dispute.getReason();
        f.failureMessage =
            "disputed: " + (dispute.getReason() != null ? dispute.getReason() : "no reason given");
      } else if (object instanceof Refund refund) {
        f.transactionId =
            refund.getPaymentIntent() != null ? refund.getPaymentIntent() : refund.getCharge();
        f.metadata = refund.getMetadata();
        f.amount = refund.getAmount();
        f.currency = refund.getCurrency();
        f.put("chargeId", refund.getCharge());
        f.put("status", refund.getStatus());
        f.failureCode = refund.getFailureReason();
      } else if (object instanceof MetadataStore<?> store) {
        f.metadata = store.getMetadata();
      }
      return f;
    }

    private void put(String name, Object value) {
      if (value != null && !value.toString().isEmpty()) {
        details.put(name, value.toString());
      }
    }
  }
}
