package dev.billing.workflows.activities;

import java.time.Instant;
import java.util.Objects;

/**
 * The drift check of one subscription, found by its key rather than through GSI-2.
 *
 * @param reportId the report the findings go to
 * @param asOf the run's time, as for {@link WindowCheckInput#asOf()}
 * @param repair false for a dry run
 */
public record SubscriptionCheckInput(
    String reportId, String accountId, String subscriptionId, Instant asOf, boolean repair) {

  public SubscriptionCheckInput {
    Objects.requireNonNull(reportId, "reportId");
    Objects.requireNonNull(accountId, "accountId");
    Objects.requireNonNull(subscriptionId, "subscriptionId");
    Objects.requireNonNull(asOf, "asOf");
  }
}
