package dev.billing.workflows.activities;

import dev.billing.domain.DunningPolicy;
import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/**
 * Reads billing policy from the worker's configuration. Called as a local activity when a period
 * needs it, so the value in force is recorded in that run's history and replays the same.
 */
@ActivityInterface
public interface PolicyActivities {
  @ActivityMethod(name = "CurrentDunningPolicy")
  DunningPolicy dunningPolicy(DunningPolicyRequest request);
}
