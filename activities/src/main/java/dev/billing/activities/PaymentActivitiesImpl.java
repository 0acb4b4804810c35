package dev.billing.activities;

import dev.billing.activities.payments.GatewayCharge;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.GatewayUnavailableException;
import dev.billing.activities.payments.InvalidGatewayRequestException;
import dev.billing.activities.payments.PaymentDeclinedException;
import dev.billing.activities.payments.PaymentGateway;
import dev.billing.workflows.activities.ChargeInput;
import dev.billing.workflows.activities.ChargeResult;
import dev.billing.workflows.activities.DeclineDetails;
import dev.billing.workflows.activities.PaymentActivities;
import dev.billing.workflows.activities.PaymentFailures;
import io.temporal.activity.Activity;
import io.temporal.failure.ApplicationFailure;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Charges through the gateway and turns its answers into what the workflow switches on. Logs carry
 * the subscription, cycle, attempts and idempotency key; never a token or card data.
 */
public final class PaymentActivitiesImpl implements PaymentActivities {
  private static final Logger log = LoggerFactory.getLogger(PaymentActivitiesImpl.class);

  private final PaymentGateway gateway;

  public PaymentActivitiesImpl(PaymentGateway gateway) {
    this.gateway = Objects.requireNonNull(gateway, "gateway");
  }

  @Override
  public ChargeResult charge(ChargeInput input) {
    // The collection attempt is the workflow's; the activity attempt counts Temporal's retries of it.
    int activityAttempt = Activity.getExecutionContext().getInfo().getAttempt();
    String where = "subscription " + input.subscriptionId() + " cycle " + input.cycle()
        + " attempt " + input.attempt() + " (activity attempt " + activityAttempt + ", key "
        + input.idempotencyKey() + ")";
    try {
      GatewayCharge charge = gateway.charge(request(input));
      log.info("Charged {} for {}: transaction {}{}", input.amount(), where,
          charge.transactionId(), charge.replayed() ? " (replayed)" : "");
      return new ChargeResult(charge.transactionId(), charge.processedAt(), charge.replayed());
    } catch (PaymentDeclinedException e) {
      log.warn("Charge of {} declined for {}: {} ({})", input.amount(), where, e.code(),
          e.getMessage());
      throw ApplicationFailure.newNonRetryableFailure(
          "Payment declined for " + where + ": " + e.code() + " (" + e.getMessage() + ")",
          PaymentFailures.DECLINED,
          new DeclineDetails(e.code(), e.getMessage()));
    } catch (GatewayUnavailableException e) {
      log.warn("Gateway unavailable charging {}: {}", where, e.getMessage());
      throw ApplicationFailure.newFailureWithCause(
          "Payment gateway unavailable for " + where + ": " + e.getMessage(),
          PaymentFailures.GATEWAY_UNAVAILABLE,
          e);
    } catch (InvalidGatewayRequestException e) {
      log.error("Gateway rejected the charge request for {}: {} ({})", where, e.code(),
          e.getMessage());
      throw ApplicationFailure.newNonRetryableFailureWithCause(
          "Payment gateway rejected the request for " + where + ": " + e.code() + " ("
              + e.getMessage() + ")",
          ActivityFailureTypes.INVALID_GATEWAY_REQUEST,
          e);
    }
  }

  static GatewayChargeRequest request(ChargeInput input) {
    Map<String, String> metadata = new LinkedHashMap<>();
    if (input.subscriptionId() != null) {
      metadata.put(GatewayChargeRequest.SUBSCRIPTION_ID, input.subscriptionId());
    }
    metadata.put(GatewayChargeRequest.CYCLE, Long.toString(input.cycle()));
    return new GatewayChargeRequest(input.idempotencyKey(), input.amount(),
        input.paymentMethod().token(), input.description(), metadata);
  }
}
