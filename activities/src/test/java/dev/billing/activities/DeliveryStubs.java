package dev.billing.activities;

import dev.billing.workflows.activities.DeliveryActivities;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.testing.TestActivityEnvironment;
import java.time.Duration;

/** Delivery's activities called once each, as the tests of their steps call them. */
final class DeliveryStubs {
  private DeliveryStubs() {}

  /** One try per call: a failure reaches the test instead of being retried. */
  static DeliveryActivities oneTry(TestActivityEnvironment env) {
    return env.newActivityStub(
        DeliveryActivities.class,
        ActivityOptions.newBuilder()
            .setStartToCloseTimeout(Duration.ofSeconds(30))
            .setRetryOptions(RetryOptions.newBuilder().setMaximumAttempts(1).build())
            .build());
  }
}
