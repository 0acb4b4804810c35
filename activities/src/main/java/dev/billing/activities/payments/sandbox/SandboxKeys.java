package dev.billing.activities.payments.sandbox;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The sandbox's idempotency keys, as strict as Stripe's: a key replays the answer its first request
 * got, for the retention from that request (24 hours by default), and is then forgotten, so a
 * request with it is new; a remembered key sent with any other parameter is refused with an {@link
 * dev.billing.activities.payments.IdempotencyConflictException}, which proves that a request with
 * it exists. Charges and refunds keep their keys apart, as Stripe's endpoints do. Not thread-safe:
 * the gateway's lock guards it, since checking a key and acting on it must be one step.
 */
final class SandboxKeys {
  /**
   * What a charge key's first execution answered: a charge (whatever its outcome), or a 500 raised
   * while it executed (Stripe stores those too). Exactly one of the two is set.
   */
  record ChargeAnswer(SandboxCharge charge, String serverError) {}

  private final IdempotencyRecords<RequestParameters.Charge, ChargeAnswer> charges;
  private final IdempotencyRecords<RequestParameters.Refund, SandboxRefund> refunds;

  SandboxKeys(Duration retention) {
    this.charges = new IdempotencyRecords<>(retention);
    this.refunds = new IdempotencyRecords<>(retention);
  }

  /**
   * The answer stored for a charge key; null when the key is new (or forgotten by now).
   *
   * @throws dev.billing.activities.payments.IdempotencyConflictException the key was first sent
   *     with other parameters
   */
  ChargeAnswer charge(String key, RequestParameters.Charge parameters, Instant now) {
    var earlier = charges.find(key, now);
    if (earlier == null) {
      return null;
    }
    refuseOtherParameters(key, earlier.parameters().differences(parameters));
    return earlier.answer();
  }

  void remember(String key, RequestParameters.Charge parameters, ChargeAnswer answer, Instant now) {
    charges.remember(key, parameters, answer, now);
  }

  /**
   * The refund made with a key; null when the key is new (or forgotten by now).
   *
   * @throws dev.billing.activities.payments.IdempotencyConflictException the key was first sent
   *     with other parameters
   */
  SandboxRefund refund(String key, RequestParameters.Refund parameters, Instant now) {
    var earlier = refunds.find(key, now);
    if (earlier == null) {
      return null;
    }
    refuseOtherParameters(key, earlier.parameters().differences(parameters));
    return earlier.answer();
  }

  void remember(
      String key, RequestParameters.Refund parameters, SandboxRefund refund, Instant now) {
    refunds.remember(key, parameters, refund, now);
  }

  private static void refuseOtherParameters(String key, List<String> differences) {
    if (!differences.isEmpty()) {
      throw IdempotencyRecords.conflict(key, differences);
    }
  }
}
