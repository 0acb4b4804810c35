package dev.billing.activities;

import dev.billing.activities.payments.ChargeQuery;
import dev.billing.activities.payments.GatewayCharge;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayRefund;
import dev.billing.activities.payments.GatewayUnavailableException;
import dev.billing.activities.payments.IdempotencyConflictException;
import dev.billing.activities.payments.InvalidGatewayRequestException;
import dev.billing.activities.payments.PaymentDeclinedException;
import dev.billing.activities.payments.PaymentGateway;
import dev.billing.activities.payments.RefundRequest;
import dev.billing.workflows.activities.ChargeInput;
import dev.billing.workflows.activities.ChargeLookup;
import dev.billing.workflows.activities.ChargeLookupInput;
import dev.billing.workflows.activities.ChargeResult;
import dev.billing.workflows.activities.DeclineDetails;
import dev.billing.workflows.activities.PaymentActivities;
import dev.billing.workflows.activities.PaymentFailures;
import dev.billing.workflows.activities.RefundInput;
import dev.billing.workflows.activities.RefundResult;
import io.temporal.activity.Activity;
import io.temporal.failure.ApplicationFailure;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Charges through the gateway and turns its answers into what the workflow switches on:
 *
 * <ul>
 *   <li>a soft decline is a non-retryable {@link PaymentFailures#DECLINED}, a hard one a
 *       non-retryable {@link ActivityFailureTypes#PAYMENT_DECLINED_HARD}, both with {@link
 *       DeclineDetails};
 *   <li>an unreachable or failing gateway is a retryable {@link
 *       PaymentFailures#GATEWAY_UNAVAILABLE} (Temporal retries with the same idempotency key, so
 *       the gateway answers at most one charge);
 *   <li>a request the gateway rejects is a non-retryable {@link
 *       ActivityFailureTypes#INVALID_GATEWAY_REQUEST}.
 * </ul>
 *
 * Logs carry the subscription, cycle, attempts and idempotency key; never a token or card data.
 */
public final class PaymentActivitiesImpl implements PaymentActivities {
  private static final Logger log = LoggerFactory.getLogger(PaymentActivitiesImpl.class);

  private final PaymentGateway gateway;

  public PaymentActivitiesImpl(PaymentGateway gateway) {
    this.gateway = Objects.requireNonNull(gateway, "gateway");
  }

  @Override
  public ChargeResult charge(ChargeInput input) {
    // The collection attempt is the workflow's; the activity attempt counts Temporal's retries of
    // it.
    int activityAttempt = Activity.getExecutionContext().getInfo().getAttempt();
    String where =
        "subscription "
            + input.subscriptionId()
            + " cycle "
            + input.cycle()
            + " attempt "
            + input.attempt()
            + " (activity attempt "
            + activityAttempt
            + ", key "
            + input.idempotencyKey()
            + ")";
    try {
      GatewayCharge charge = gateway.charge(request(input));
      log.info(
          "Charged {} for {}: transaction {}{}{}",
          input.amount(),
          where,
          charge.transactionId(),
          charge.replayed() ? " (replayed)" : "",
          charge.pending() ? ", pending settlement" : "");
      return new ChargeResult(
          charge.transactionId(), charge.processedAt(), charge.replayed(), charge.pending());
    } catch (PaymentDeclinedException e) {
      String kind = e.hard() ? "hard" : "soft";
      log.warn(
          "Charge of {} declined ({}) for {}: {} ({})",
          input.amount(),
          kind,
          where,
          e.code(),
          e.getMessage());
      throw ApplicationFailure.newNonRetryableFailure(
          "Payment declined ("
              + kind
              + ") for "
              + where
              + ": "
              + e.code()
              + " ("
              + e.getMessage()
              + ")",
          e.hard() ? ActivityFailureTypes.PAYMENT_DECLINED_HARD : PaymentFailures.DECLINED,
          new DeclineDetails(e.code(), e.getMessage()));
    } catch (GatewayUnavailableException e) {
      log.warn("Gateway unavailable charging {}: {}", where, e.getMessage());
      throw ApplicationFailure.newFailureWithCause(
          "Payment gateway unavailable for " + where + ": " + e.getMessage(),
          PaymentFailures.GATEWAY_UNAVAILABLE,
          e);
    } catch (IdempotencyConflictException e) {
      log.warn("Gateway holds an earlier request with the key of {}: {}", where, e.getMessage());
      throw ApplicationFailure.newNonRetryableFailureWithCause(
          "Payment gateway holds an earlier request with the key of "
              + where
              + ": "
              + e.getMessage(),
          PaymentFailures.IDEMPOTENCY_CONFLICT,
          e);
    } catch (InvalidGatewayRequestException e) {
      log.error(
          "Gateway rejected the charge request for {}: {} ({})", where, e.code(), e.getMessage());
      throw ApplicationFailure.newNonRetryableFailureWithCause(
          "Payment gateway rejected the request for "
              + where
              + ": "
              + e.code()
              + " ("
              + e.getMessage()
              + ")",
          ActivityFailureTypes.INVALID_GATEWAY_REQUEST,
          e);
    }
  }

  /**
   * Asks the gateway about one key. {@code processedAt} is the time of the state reported: created
   * (PENDING, FAILED), settled (SUCCEEDED; the creation time when the gateway does not tell the
   * settlement time) or returned (RETURNED; settled or created when the gateway does not tell). The
   * gateway reads by creation time from the input's lower bound, a read that does not lag its
   * writes: NOT_FOUND is proof that the key made no charge since then.
   */
  @Override
  public ChargeLookup lookUpCharge(ChargeLookupInput input) {
    String where =
        "subscription "
            + input.subscriptionId()
            + " cycle "
            + input.cycle()
            + " (key "
            + input.idempotencyKey()
            + ")";
    GatewayChargeState state;
    try {
      state =
          gateway.lookUp(
              new ChargeQuery(
                  input.idempotencyKey(),
                  input.paymentMethod() == null ? null : input.paymentMethod().token(),
                  input.sentFrom()));
    } catch (GatewayUnavailableException e) {
      log.warn("Gateway unavailable looking up {}: {}", where, e.getMessage());
      throw ApplicationFailure.newFailureWithCause(
          "Payment gateway unavailable looking up " + where + ": " + e.getMessage(),
          PaymentFailures.GATEWAY_UNAVAILABLE,
          e);
    } catch (InvalidGatewayRequestException e) {
      log.error("Gateway rejected the look-up of {}: {} ({})", where, e.code(), e.getMessage());
      throw ApplicationFailure.newNonRetryableFailureWithCause(
          "Payment gateway rejected the look-up of "
              + where
              + ": "
              + e.code()
              + " ("
              + e.getMessage()
              + ")",
          ActivityFailureTypes.INVALID_GATEWAY_REQUEST,
          e);
    }
    ChargeLookup lookup =
        new ChargeLookup(
            status(state.status()),
            state.transactionId(),
            processedAt(state),
            state.failureCode(),
            state.failureMessage());
    log.info(
        "Looked up {}: {} {}",
        where,
        lookup.status(),
        lookup.transactionId() == null ? "" : lookup.transactionId());
    return lookup;
  }

  @Override
  public RefundResult refund(RefundInput input) {
    String where =
        "subscription "
            + input.subscriptionId()
            + " cycle "
            + input.cycle()
            + " (charge "
            + input.transactionId()
            + ", key "
            + input.idempotencyKey()
            + ")";
    try {
      GatewayRefund refund =
          gateway.refund(
              new RefundRequest(
                  input.idempotencyKey(),
                  input.transactionId(),
                  input.amount(),
                  RefundRequest.Reason.REQUESTED_BY_CUSTOMER));
      log.info(
          "Refunded {} for {}: refund {}{}",
          refund.amount(),
          where,
          refund.refundId(),
          refund.pending() ? " (pending)" : "");
      return new RefundResult(
          refund.refundId(), refund.amount(), refund.processedAt(), refund.pending());
    } catch (GatewayUnavailableException e) {
      log.warn("Gateway unavailable refunding {}: {}", where, e.getMessage());
      throw ApplicationFailure.newFailureWithCause(
          "Payment gateway unavailable refunding " + where + ": " + e.getMessage(),
          PaymentFailures.GATEWAY_UNAVAILABLE,
          e);
    } catch (IdempotencyConflictException e) {
      log.warn("Gateway holds an earlier refund with the key of {}: {}", where, e.getMessage());
      throw ApplicationFailure.newNonRetryableFailureWithCause(
          "Payment gateway holds an earlier refund with the key of "
              + where
              + ": "
              + e.getMessage(),
          PaymentFailures.IDEMPOTENCY_CONFLICT,
          e);
    } catch (InvalidGatewayRequestException e) {
      log.warn(
          "Gateway refused the refund of {} for {}: {} ({})",
          input.amount(),
          where,
          e.code(),
          e.getMessage());
      throw ApplicationFailure.newNonRetryableFailureWithCause(
          "Refund of " + input.amount() + " refused for " + where + ": " + e.getMessage(),
          PaymentFailures.REFUND_REFUSED,
          e);
    }
  }

  static GatewayChargeRequest request(ChargeInput input) {
    Map<String, String> metadata = new LinkedHashMap<>();
    if (input.subscriptionId() != null) {
      metadata.put(GatewayChargeRequest.SUBSCRIPTION_ID, input.subscriptionId());
    }
    metadata.put(GatewayChargeRequest.CYCLE, Long.toString(input.cycle()));
    return new GatewayChargeRequest(
        input.idempotencyKey(),
        input.amount(),
        input.paymentMethod().token(),
        input.description(),
        metadata);
  }

  private static ChargeLookup.Status status(GatewayChargeState.Status status) {
    return switch (status) {
      case NOT_FOUND -> ChargeLookup.Status.NOT_FOUND;
      case SUCCEEDED -> ChargeLookup.Status.SUCCEEDED;
      case PENDING -> ChargeLookup.Status.PENDING;
      case FAILED -> ChargeLookup.Status.FAILED;
      case RETURNED -> ChargeLookup.Status.RETURNED;
    };
  }

  private static Instant processedAt(GatewayChargeState state) {
    return switch (state.status()) {
      case NOT_FOUND -> null;
      case PENDING, FAILED -> state.createdAt();
      case SUCCEEDED -> firstNonNull(state.settledAt(), state.createdAt());
      case RETURNED ->
          firstNonNull(state.returnedAt(), firstNonNull(state.settledAt(), state.createdAt()));
    };
  }

  private static Instant firstNonNull(Instant a, Instant b) {
    return a != null ? a : b;
  }
}
