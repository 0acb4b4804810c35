package dev.billing.bench.stack;

import dev.billing.activities.payments.GatewayCharge;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayEvent;
import dev.billing.activities.payments.GatewayRefund;
import dev.billing.activities.payments.PaymentGateway;
import dev.billing.activities.payments.RefundRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A gateway whose charges take as long as a real one's: the sandbox answers at once, Stripe's API in
 * a few hundred milliseconds, during which the caller's thread (an activity slot, or a batch
 * thread) waits. Both paths of the peak get the same one, so the comparison stays like for like.
 */
public final class LatentGateway implements PaymentGateway {
  private final PaymentGateway gateway;
  private final Duration latency;

  private LatentGateway(PaymentGateway gateway, Duration latency) {
    this.gateway = gateway;
    this.latency = latency;
  }

  /** The gateway itself when there is no latency to add. */
  public static PaymentGateway of(PaymentGateway gateway, Duration latency) {
    return latency.isZero() ? gateway : new LatentGateway(gateway, latency);
  }

  @Override
  public GatewayCharge charge(GatewayChargeRequest request) {
    try {
      Thread.sleep(latency.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while the gateway answered", e);
    }
    return gateway.charge(request);
  }

  @Override
  public GatewayRefund refund(RefundRequest request) {
    return gateway.refund(request);
  }

  @Override
  public GatewayChargeState lookUp(String idempotencyKey) {
    return gateway.lookUp(idempotencyKey);
  }

  @Override
  public List<GatewayChargeState> listCharges(Instant from, Instant to) {
    return gateway.listCharges(from, to);
  }

  @Override
  public List<GatewayEvent> listEvents(Instant from, Instant to) {
    return gateway.listEvents(from, to);
  }
}
