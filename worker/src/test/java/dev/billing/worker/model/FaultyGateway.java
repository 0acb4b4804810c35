package dev.billing.worker.model;

import dev.billing.activities.payments.ChargeQuery;
import dev.billing.activities.payments.ForwardingGateway;
import dev.billing.activities.payments.GatewayCharge;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayRefund;
import dev.billing.activities.payments.GatewayUnavailableException;
import dev.billing.activities.payments.PaymentGateway;
import dev.billing.activities.payments.RefundRequest;
import java.net.SocketTimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The gateway as the network delivers it: the model arms a number of faults, each consumed by the
 * next calls that reach it. What the sandbox does on its own (key retention, rate limit, the
 * scripted tokens) stays the sandbox's.
 *
 * <ul>
 *   <li>timeouts after the money moved: the call reaches the gateway, then the answer is lost;
 *   <li>5xx bursts and 429s: refused before the gateway saw the request, so nothing moved;
 *   <li>both: an answer lost, then an outage.
 * </ul>
 */
final class FaultyGateway extends ForwardingGateway {
  private final AtomicInteger lostAnswers = new AtomicInteger();
  private final AtomicInteger serverErrors = new AtomicInteger();
  private final AtomicInteger throttled = new AtomicInteger();
  private final AtomicInteger outageAfterLoss = new AtomicInteger();
  private final AtomicInteger faultsServed = new AtomicInteger();

  FaultyGateway(PaymentGateway sandbox) {
    super(sandbox);
  }

  /** The next {@code calls} charges or refunds reach the gateway and then time out. */
  void loseAnswers(int calls) {
    lostAnswers.addAndGet(calls);
  }

  /**
   * The next charge or refund reaches the gateway and times out, and the next {@code calls} calls
   * after it answer 503: an outage that starts once the money moved, outlasting the activity's
   * retries.
   */
  void loseAnswerThenFail(int calls) {
    lostAnswers.incrementAndGet();
    outageAfterLoss.set(calls);
  }

  /** The next {@code calls} calls of any kind answer 503. */
  void serverErrors(int calls) {
    serverErrors.addAndGet(calls);
  }

  /** The next {@code calls} calls of any kind answer 429. */
  void throttle(int calls) {
    throttled.addAndGet(calls);
  }

  /** Disarms every fault not yet consumed. */
  void heal() {
    lostAnswers.set(0);
    serverErrors.set(0);
    throttled.set(0);
    outageAfterLoss.set(0);
  }

  int faultsServed() {
    return faultsServed.get();
  }

  @Override
  public GatewayCharge charge(GatewayChargeRequest request) {
    refuseIfArmed("charge " + request.idempotencyKey());
    GatewayCharge charged = super.charge(request);
    loseAnswerIfArmed("charge " + request.idempotencyKey());
    return charged;
  }

  @Override
  public GatewayRefund refund(RefundRequest request) {
    refuseIfArmed("refund " + request.idempotencyKey());
    GatewayRefund refunded = super.refund(request);
    loseAnswerIfArmed("refund " + request.idempotencyKey());
    return refunded;
  }

  @Override
  public GatewayChargeState lookUp(ChargeQuery query) {
    refuseIfArmed("look-up " + query.idempotencyKey());
    return super.lookUp(query);
  }

  private void refuseIfArmed(String what) {
    if (take(serverErrors)) {
      throw new GatewayUnavailableException(
          "model fault: 503 Service Unavailable for the " + what, null);
    }
    if (take(throttled)) {
      throw new GatewayUnavailableException(
          "model fault: 429 Too Many Requests for the " + what, null);
    }
  }

  private void loseAnswerIfArmed(String what) {
    if (take(lostAnswers)) {
      serverErrors.addAndGet(outageAfterLoss.getAndSet(0));
      throw new GatewayUnavailableException(
          "model fault: read timed out after the gateway made the " + what,
          new SocketTimeoutException("Read timed out"));
    }
  }

  private boolean take(AtomicInteger armed) {
    boolean taken = armed.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0;
    if (taken) {
      faultsServed.incrementAndGet();
    }
    return taken;
  }
}
