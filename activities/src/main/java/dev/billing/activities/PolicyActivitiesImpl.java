package dev.billing.activities;

import dev.billing.domain.DunningPolicy;
import dev.billing.workflows.activities.DunningPolicyRequest;
import dev.billing.workflows.activities.PolicyActivities;
import java.util.Objects;

/**
 * The dunning policy from the worker's configuration. Workflows read it through this (local)
 * activity when a period enters dunning, which records the value in history: a configuration change
 * applies to periods that fail afterwards, never to dunning already under way.
 */
public final class PolicyActivitiesImpl implements PolicyActivities {
  private final DunningPolicy dunning;

  public PolicyActivitiesImpl(DunningPolicy dunning) {
    this.dunning = Objects.requireNonNull(dunning, "dunning");
  }

  @Override
  public DunningPolicy dunningPolicy(DunningPolicyRequest request) {
    return dunning;
  }
}
