package dev.billing.workflows.subscription;

import dev.billing.workflows.BillingDayChange;
import dev.billing.workflows.CustomerChange;
import dev.billing.workflows.PlanChangeRequest;
import dev.billing.workflows.SubscriptionState;

/**
 * The update handlers and validators that change what is billed, when and to whom: the plan, the
 * billing day and the customer's details. Validators refuse by the rules; handlers queue the change
 * for the main thread ({@link ChangeQueue}) and wait for its answer.
 */
final class BillingUpdates {
  private final RunState run;
  private final ChangeQueue changes;

  BillingUpdates(RunState run) {
    this.run = run;
    this.changes = run.changes;
  }

  void validateChangePlan(PlanChangeRequest request) {
    changes.validate(
        ChangeQueue.identified(request),
        () ->
            ChangeRules.plan(
                run.current(), request, run.cancelling(), run.requests.pendingUpgrade()));
  }

  SubscriptionState changePlan(PlanChangeRequest request) {
    return changes.submit(new QueuedChange.Plan(ChangeQueue.identified(request)));
  }

  void validateChangeBillingDay(BillingDayChange request) {
    changes.validate(
        ChangeQueue.identified(request),
        () ->
            ChangeRules.billingDay(
                run.current(), request, run.cancelling(), run.requests.pendingUpgrade()));
  }

  SubscriptionState changeBillingDay(BillingDayChange request) {
    return changes.submit(new QueuedChange.BillingDay(ChangeQueue.identified(request)));
  }

  void validateChangeCustomer(CustomerChange change) {
    changes.validate(
        ChangeQueue.identified(change),
        () -> ChangeRules.customer(run.current(), change, run.cancelling()));
  }

  SubscriptionState changeCustomer(CustomerChange change) {
    return changes.submit(new QueuedChange.Customer(ChangeQueue.identified(change)));
  }
}
