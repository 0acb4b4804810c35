package dev.billing.activities.reconciliation;

import dev.billing.activities.payments.PaymentGateway;
import dev.billing.domain.DunningPolicy;
import dev.billing.store.BillingStore;
import dev.billing.store.ReconciliationQueries;
import dev.billing.store.ReconciliationReports;
import dev.billing.store.events.PaymentEventIntake;
import dev.billing.store.events.PaymentEventStore;
import dev.billing.workflows.activities.CheckResult;
import dev.billing.workflows.activities.DayCheckInput;
import dev.billing.workflows.activities.DueCheckInput;
import dev.billing.workflows.activities.ReconciliationActivities;
import dev.billing.workflows.reconciliation.Finding;
import dev.billing.workflows.reconciliation.ReconciliationSummary;
import io.temporal.activity.Activity;
import java.util.Objects;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The reconciliation steps on DynamoDB, Temporal and the payment gateway. */
public final class ReconciliationActivitiesImpl implements ReconciliationActivities {
  private static final Logger LOG = LoggerFactory.getLogger(ReconciliationActivitiesImpl.class);

  /**
   * What the steps work on.
   *
   * @param provider the name events of {@code gateway} are stored under ("sandbox", "stripe"), as
   *     the webhook endpoint of that provider stores them
   * @param dunning the policy a restarted workflow applies to unpaid periods
   * @param onFinding told of every finding (metrics)
   */
  public record Dependencies(
      BillingStore store,
      ReconciliationQueries queries,
      ReconciliationReports reports,
      PaymentEventStore events,
      SubscriptionWorkflowOps workflows,
      PaymentGateway gateway,
      String provider,
      DunningPolicy dunning,
      Consumer<Finding> onFinding) {

    public Dependencies {
      Objects.requireNonNull(store, "store");
      Objects.requireNonNull(queries, "queries");
      Objects.requireNonNull(reports, "reports");
      Objects.requireNonNull(events, "events");
      Objects.requireNonNull(workflows, "workflows");
      Objects.requireNonNull(gateway, "gateway");
      Objects.requireNonNull(provider, "provider");
      dunning = dunning == null ? DunningPolicy.DEFAULT : dunning;
      onFinding = onFinding == null ? finding -> { } : onFinding;
    }
  }

  private final Dependencies deps;
  private final DriftCheck drift;
  private final ChargesCheck charges;
  private final WebhookReplay webhooks;

  public ReconciliationActivitiesImpl(Dependencies deps) {
    this.deps = deps;
    this.drift = new DriftCheck(deps.store(), deps.queries(), deps.workflows(), deps.gateway(),
        deps.provider(), deps.dunning());
    this.charges = new ChargesCheck(deps.store(), deps.queries(), deps.workflows(), deps.gateway(),
        deps.provider());
    this.webhooks = new WebhookReplay(deps.gateway(), deps.events(),
        new PaymentEventIntake(deps.events(), deps.workflows()::signal), deps.provider());
  }

  @Override
  public void openReport(ReconciliationSummary summary) {
    deps.reports().save(summary);
  }

  @Override
  public CheckResult checkDueSubscriptions(DueCheckInput input) {
    FindingLog log = log(input.reportId(), input);
    String next = drift.checkPage(input, log, ReconciliationActivitiesImpl::heartbeat);
    return log.finish(deps.reports(), input.asOf(), next);
  }

  @Override
  public CheckResult compareGatewayCharges(DayCheckInput input) {
    FindingLog log = new FindingLog(input.reportId(), input.asOf(), deps.onFinding());
    charges.check(input, log, ReconciliationActivitiesImpl::heartbeat);
    return log.finish(deps.reports(), input.asOf(), null);
  }

  @Override
  public CheckResult replayMissedWebhooks(DayCheckInput input) {
    FindingLog log = new FindingLog(input.reportId(), input.asOf(), deps.onFinding());
    webhooks.replay(input, log, ReconciliationActivitiesImpl::heartbeat);
    return log.finish(deps.reports(), input.asOf(), null);
  }

  @Override
  public void closeReport(ReconciliationSummary summary) {
    deps.reports().save(summary);
    LOG.info("reconciliation report {} {}: {} subscriptions, {} charges, {} events; findings {}",
        summary.reportId(), summary.status(), summary.counts().subscriptionsChecked(),
        summary.counts().chargesCompared(), summary.counts().eventsCompared(), summary.counts().findings());
  }

  private FindingLog log(String reportId, DueCheckInput input) {
    return new FindingLog(reportId, input.asOf(), deps.onFinding());
  }

  /** Keeps the step alive in Temporal's eyes (heartbeat timeout 2 minutes); throttled by the SDK. */
  private static void heartbeat() {
    Activity.getExecutionContext().heartbeat(null);
  }
}
