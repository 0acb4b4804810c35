package dev.billing.workflows.subscription;

import dev.billing.domain.DunningPolicy;
import dev.billing.domain.Period;
import dev.billing.domain.Subscription;
import dev.billing.workflows.BillingActivityOptions;
import dev.billing.workflows.UpdateRejections;
import dev.billing.workflows.activities.ChargeInput;
import dev.billing.workflows.activities.ChargeLookup;
import dev.billing.workflows.activities.ChargeLookupInput;
import dev.billing.workflows.activities.ChargeResult;
import dev.billing.workflows.activities.DunningPolicyRequest;
import dev.billing.workflows.activities.LoadPeriodInput;
import dev.billing.workflows.activities.PaymentActivities;
import dev.billing.workflows.activities.PolicyActivities;
import dev.billing.workflows.activities.RecordActivities;
import dev.billing.workflows.activities.RefundInput;
import dev.billing.workflows.activities.RefundResult;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import org.slf4j.Logger;

/**
 * The one place the workflow charges, refunds and asks: the payment activities (on their own
 * rate-limited queue), the exact charge lookup, the dunning policy and the stored periods. Used by
 * the period collection ({@link ChargeAttempts}) and by the money client requests move ({@link
 * MoneyChanges}); an activity failure reaches the caller, which decides what an unknown outcome
 * means for it.
 */
final class Gateway {
  private static final Logger log = Workflow.getLogger(Gateway.class);

  private final PaymentActivities payments =
      Workflow.newActivityStub(
          PaymentActivities.class,
          BillingActivityOptions.onPaymentsQueue(BillingActivityOptions.CHARGE_PAYMENT_METHOD));
  private final PaymentActivities lookups =
      Workflow.newActivityStub(
          PaymentActivities.class,
          BillingActivityOptions.onPaymentsQueue(BillingActivityOptions.LOOK_UP_CHARGE));
  private final PolicyActivities policies =
      Workflow.newLocalActivityStub(PolicyActivities.class, BillingActivityOptions.DUNNING_POLICY);
  private final RecordActivities reads =
      Workflow.newActivityStub(RecordActivities.class, BillingActivityOptions.RECORD_CHANGE);

  /**
   * @throws ActivityFailure when the gateway declined it or gave no answer (see {@link
   *     ChargeFailure})
   */
  ChargeResult charge(ChargeInput input) {
    return payments.charge(input);
  }

  /**
   * @throws ActivityFailure when the gateway refused it or gave no answer
   */
  RefundResult refund(RefundInput input) {
    return payments.refund(input);
  }

  /**
   * What the gateway knows about a key, from a read that does not lag.
   *
   * @throws ActivityFailure when it does not answer
   */
  ChargeLookup lookUp(ChargeLookupInput input) {
    return lookups.lookUpCharge(input);
  }

  /** The period's dunning policy, snapshotted when it first fails; the default when unreadable. */
  DunningPolicy dunningPolicy(String subscriptionId, long cycle) {
    try {
      DunningPolicy policy =
          policies.dunningPolicy(new DunningPolicyRequest(subscriptionId, cycle));
      if (policy != null) {
        return policy;
      }
    } catch (ActivityFailure e) {
      log.warn(
          "dunning policy unreadable for cycle {} of {}; using the default",
          cycle,
          subscriptionId,
          e);
    }
    return DunningPolicy.DEFAULT;
  }

  /** The stored period; null when it has none. */
  Period period(Subscription sub, long cycle) {
    return reads
        .loadPeriod(new LoadPeriodInput(sub.accountId(), sub.subscriptionId(), cycle))
        .period();
  }

  /** The stored period; fails the update with NO_SUCH_PERIOD when there is none. */
  Period load(Subscription sub, long cycle) {
    Period stored = period(sub, cycle);
    if (stored == null) {
      throw ApplicationFailure.newNonRetryableFailure(
          "subscription " + sub.subscriptionId() + " has no period " + cycle,
          UpdateRejections.NO_SUCH_PERIOD);
    }
    return stored;
  }
}
