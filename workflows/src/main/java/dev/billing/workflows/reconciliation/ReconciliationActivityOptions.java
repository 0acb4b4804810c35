package dev.billing.workflows.reconciliation;

import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import java.time.Duration;

/** Timeouts and retries of the reconciliation steps; each says what its numbers protect. */
public final class ReconciliationActivityOptions {
  private ReconciliationActivityOptions() {}

  /**
   * Opening and closing the report: one DynamoDB write each. Retried 1 s, 2 s ... up to a minute
   * apart for about ten minutes; a report that cannot be written fails the run, which the next
   * scheduled run repeats.
   */
  public static final ActivityOptions REPORT =
      ActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofSeconds(30))
          .setRetryOptions(
              RetryOptions.newBuilder()
                  .setInitialInterval(Duration.ofSeconds(1))
                  .setBackoffCoefficient(2)
                  .setMaximumInterval(Duration.ofMinutes(1))
                  .setMaximumAttempts(15)
                  .build())
          .build();

  /**
   * CheckDueSubscriptions, CompareGatewayCharges, ReplayMissedWebhooks: a page of up to 200
   * subscriptions (a describe each) or a day of the gateway's charges or events. They heartbeat per
   * item, so a worker that dies is noticed within two minutes rather than at the ten-minute
   * deadline. Retried five times, 10 s doubling to 5 min (a gateway outage of a quarter of an
   * hour); then the step is reported as failed and the run goes on with the others. Every repair is
   * idempotent, so a retried step repeats nothing harmful.
   */
  public static final ActivityOptions CHECK =
      ActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofMinutes(10))
          .setHeartbeatTimeout(Duration.ofMinutes(2))
          .setRetryOptions(
              RetryOptions.newBuilder()
                  .setInitialInterval(Duration.ofSeconds(10))
                  .setBackoffCoefficient(2)
                  .setMaximumInterval(Duration.ofMinutes(5))
                  .setMaximumAttempts(5)
                  .build())
          .build();
}
