package dev.billing.activities;

import dev.billing.activities.payments.ChargeQuery;
import dev.billing.activities.payments.ForwardingGateway;
import dev.billing.activities.payments.GatewayCharge;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayUnavailableException;
import dev.billing.activities.payments.PaymentGateway;
import java.net.SocketException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** Records every charge and look-up, fails the next n of them as unreachable, then delegates. */
final class FlakyGateway extends ForwardingGateway {
  final List<GatewayChargeRequest> requests = new CopyOnWriteArrayList<>();
  final List<String> lookUps = new CopyOnWriteArrayList<>();
  private final AtomicInteger failuresLeft = new AtomicInteger();

  FlakyGateway(PaymentGateway delegate) {
    super(delegate);
  }

  void failNext(int n) {
    failuresLeft.set(n);
  }

  @Override
  public GatewayCharge charge(GatewayChargeRequest request) {
    requests.add(request);
    if (failuresLeft.getAndDecrement() > 0) {
      throw new GatewayUnavailableException(
          "connection reset", new SocketException("Connection reset"));
    }
    return super.charge(request);
  }

  @Override
  public GatewayChargeState lookUp(ChargeQuery query) {
    lookUps.add(query.idempotencyKey());
    if (failuresLeft.getAndDecrement() > 0) {
      throw new GatewayUnavailableException(
          "connection reset", new SocketException("Connection reset"));
    }
    return super.lookUp(query);
  }
}
