package dev.billing.activities;

import dev.billing.activities.payments.GatewayCharge;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.GatewayUnavailableException;
import dev.billing.activities.payments.PaymentGateway;
import java.net.SocketException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** Records every request, fails the next n as unreachable, then delegates. */
final class FlakyGateway implements PaymentGateway {
  final List<GatewayChargeRequest> requests = new CopyOnWriteArrayList<>();
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
}
