package dev.billing.bench.stack;

import dev.billing.activities.payments.ForwardingGateway;
import dev.billing.activities.payments.GatewayCharge;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.PaymentGateway;
import java.time.Duration;

/**
 * A gateway whose charges take as long as a real one's: the sandbox answers at once, a real gateway
 * after a network round trip, during which the caller's thread (an activity slot, or a batch
 * thread) waits. Both paths of the peak get the same one, so the comparison stays like for like.
 */
public final class LatentGateway extends ForwardingGateway {
  private final Duration latency;

  private LatentGateway(PaymentGateway gateway, Duration latency) {
    super(gateway);
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
    return super.charge(request);
  }
}
