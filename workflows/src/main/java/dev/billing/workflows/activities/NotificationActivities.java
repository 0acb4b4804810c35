package dev.billing.workflows.activities;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/**
 * Tells the customer what happened (payment failed, subscription cancelled, ...). Idempotent by
 * message id. Never on the path of a charge: the workflow does not wait on it before billing.
 */
@ActivityInterface
public interface NotificationActivities {
  @ActivityMethod(name = "NotifyCustomer")
  NotifyCustomerResult notifyCustomer(NotifyCustomerInput input);
}
