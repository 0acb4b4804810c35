package dev.billing.activities.payments;

import java.time.Instant;
import java.util.List;

/**
 * A gateway that passes every call to another: the base of decorators that change one or two
 * operations (add latency, inject faults, record calls) and must keep the rest exactly as the
 * gateway they wrap.
 */
public abstract class ForwardingGateway implements PaymentGateway {
  private final PaymentGateway delegate;

  protected ForwardingGateway(PaymentGateway delegate) {
    this.delegate = delegate;
  }

  @Override
  public GatewayCharge charge(GatewayChargeRequest request) {
    return delegate.charge(request);
  }

  @Override
  public GatewayRefund refund(RefundRequest request) {
    return delegate.refund(request);
  }

  @Override
  public GatewayChargeState lookUp(ChargeQuery query) {
    return delegate.lookUp(query);
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
