package dev.billing.workflows.subscription;

import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;

/**
 * The records of a subscription's first payment failing (see {@link
 * dev.billing.domain.FirstPayment}): the period's failure is recorded as any other (ERROR, the
 * attempt, the decline), but the subscription is INCOMPLETE while the first payment's own schedule
 * retries it, never PAST_DUE, and INCOMPLETE_EXPIRED when that schedule is used up. Pure.
 */
final class FirstPaymentChanges {
  private FirstPaymentChanges() {}

  /** A first payment's failed attempt with a retry to come: INCOMPLETE. */
  static RecordInput retried(RecordInput failed) {
    return withNext(failed, failed.next().withStatus(SubscriptionStatus.INCOMPLETE));
  }

  /**
   * The last attempt of a first payment failed: the subscription ends with nothing due (it leaves
   * both date indexes), in the same write as its period's failure. The period stays ERROR with its
   * decline but is not owed: it is neither dunned, nor payable, nor carried.
   */
  static RecordInput expired(RecordInput failed) {
    Subscription next =
        failed.next().withStatus(SubscriptionStatus.INCOMPLETE_EXPIRED).withNothingDue();
    return withNext(failed, next);
  }

  private static RecordInput withNext(RecordInput change, Subscription next) {
    return new RecordInput(
        change.changeId(),
        change.previous(),
        next,
        change.event(),
        change.process(),
        change.actor(),
        change.detail(),
        change.period(),
        change.receipt(),
        change.at());
  }
}
