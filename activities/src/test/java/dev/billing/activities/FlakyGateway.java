package dev.billing.activities;

import dev.billing.activities.payments.GatewayCharge;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayEvent;
import dev.billing.activities.payments.GatewayRefund;
import dev.billing.activities.payments.GatewayUnavailableException;
import dev.billing.activities.payments.PaymentGateway;
import dev.billing.activities.payments.RefundRequest;
import java.net.SocketException;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** Records every charge and look-up, fails the next n of them as unreachable, then delegates. */
final class FlakyGateway implements PaymentGateway {
  final List<GatewayChargeRequest> requests = new CopyOnWriteArrayList<>();
  final List<String> lookUps = new CopyOnWriteArrayList<>();
  private final AtomicInteger failuresLeft = new AtomicInteger();
  private final PaymentGateway delegate;

  FlakyGateway(PaymentGateway delegate) {
    this.delegate = delegate;
  }

  void failNext(int n) {
    failuresLeft.set(n);
  }

  @Override
  public GatewayCharge charge(GatewayChargeRequest request) {
    requests.add(request);
    if (failuresLeft.getAndDecrement() > 0) {
      throw new GatewayUnavailableException("connection reset", new SocketException("Connection reset"));
    }
    return delegate.charge(request);
  }

  @Override
  public GatewayRefund refund(RefundRequest request) {
    return delegate.refund(request);
  }

  @Override
  public GatewayChargeState lookUp(String idempotencyKey) {
    lookUps.add(idempotencyKey);
    if (failuresLeft.getAndDecrement() > 0) {
      throw new GatewayUnavailableException("connection reset", new SocketException("Connection reset"));
    }
    return delegate.lookUp(idempotencyKey);
  }

  @Override
  public List<GatewayChargeState> listCharges(Instant from, Instant to) {
    return delegate.listCharges(from, to);
  }

  @Override
  public List<GatewayEvent> listEvents(Instant from, Instant to) {
    return delegate.listEvents(from, to);
  }
}
