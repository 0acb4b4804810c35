package dev.billing.activities.reconciliation;

import dev.billing.activities.payments.PaymentEventIntake;
import dev.billing.activities.payments.PaymentGateway;
import dev.billing.domain.DunningPolicy;
import dev.billing.domain.reconciliation.CheckResult;
import dev.billing.domain.reconciliation.Finding;
import dev.billing.domain.reconciliation.ReconciliationSummary;
import dev.billing.store.BillingStore;
import dev.billing.store.ReconciliationQueries;
import dev.billing.store.ReconciliationReports;
import dev.billing.store.events.PaymentEventStore;
import dev.billing.workflows.activities.ReconciliationActivities;
import dev.billing.workflows.activities.SubscriptionCheckInput;
import dev.billing.workflows.activities.WindowCheckInput;
import io.temporal.activity.Activity;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Objects;
import java.util.function.BiConsumer;
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
      onFinding = onFinding == null ? finding -> {} : onFinding;
    }
  }

  private final Dependencies deps;
  private final int dueBudget;
  private final int gatewayBudget;

  /** Keeps a step alive in Temporal's eyes (heartbeat timeout 2 minutes); throttled by the SDK. */
  private final Runnable heartbeat;

  private final DriftCheck drift;
  private final ChargesCheck charges;
  private final WebhookReplay webhooks;

  public ReconciliationActivitiesImpl(Dependencies deps) {
    this(
        deps,
        DriftCheck.PAGE_SIZE,
        DUE_BUDGET,
        GATEWAY_BUDGET,
        () -> Activity.getExecutionContext().heartbeat(null));
  }

  /**
   * With other amounts of work per call, and a heartbeat for calls made outside Temporal (tests).
   */
  ReconciliationActivitiesImpl(
      Dependencies deps, int pageSize, int dueBudget, int gatewayBudget, Runnable heartbeat) {
    this.deps = deps;
    this.dueBudget = dueBudget;
    this.gatewayBudget = gatewayBudget;
    this.heartbeat = heartbeat;
    this.drift =
        new DriftCheck(
            deps.store(),
            deps.queries(),
            deps.workflows(),
            deps.gateway(),
            deps.provider(),
            deps.dunning(),
            pageSize);
    this.charges =
        new ChargesCheck(
            deps.store(), deps.queries(), deps.workflows(), deps.gateway(), deps.provider());
    this.webhooks =
        new WebhookReplay(
            deps.gateway(),
            deps.events(),
            new PaymentEventIntake(deps.events(), deps.workflows()),
            deps.provider());
  }

  @Override
  public void openReport(ReconciliationSummary summary) {
    deps.reports().save(summary);
  }

  /**
   * Subscriptions looked at per call: each costs a few DynamoDB reads and a describe (tens of
   * milliseconds), so a call stays far inside its ten-minute timeout.
   */
  static final int DUE_BUDGET = 500;

  /** Gateway charges or events per call: a day is never split, so a call may go past this once. */
  static final int GATEWAY_BUDGET = 2000;

  @Override
  public CheckResult checkDueSubscriptions(WindowCheckInput input) {
    FindingLog log = log(input.reportId(), input.asOf());
    LocalDate date = input.from();
    String page = null;
    if (input.cursor() != null) {
      int bar = input.cursor().indexOf('|');
      date = LocalDate.parse(bar < 0 ? input.cursor() : input.cursor().substring(0, bar));
      page = bar < 0 ? null : input.cursor().substring(bar + 1);
    }
    while (!date.isAfter(input.to())) {
      page =
          drift.checkPage(
              new DueCheckInput(input.reportId(), date, page, input.asOf(), input.repair()),
              log,
              heartbeat);
      if (page == null) {
        date = date.plusDays(1);
      }
      if (log.examinedSoFar() >= dueBudget && !date.isAfter(input.to())) {
        return log.finish(
            deps.reports(), input.asOf(), page == null ? date.toString() : date + "|" + page);
      }
    }
    return log.finish(deps.reports(), input.asOf(), null);
  }

  @Override
  public CheckResult checkSubscription(SubscriptionCheckInput input) {
    FindingLog log = log(input.reportId(), input.asOf());
    drift.check(input.accountId(), input.subscriptionId(), input.asOf(), input.repair(), log);
    return log.finish(deps.reports(), input.asOf(), null);
  }

  @Override
  public CheckResult compareGatewayCharges(WindowCheckInput input) {
    LocalDate first = input.cursor() == null ? input.from() : LocalDate.parse(input.cursor());
    var paid = charges.paidIndex(first, input.to());
    return byDay(input, (day, log) -> charges.check(day, log, heartbeat, paid));
  }

  @Override
  public CheckResult replayMissedWebhooks(WindowCheckInput input) {
    return byDay(input, (day, log) -> webhooks.replay(day, log, heartbeat));
  }

  /** The window's days in order, stopping after the day that used up the budget. */
  private CheckResult byDay(WindowCheckInput input, BiConsumer<DayCheckInput, FindingLog> check) {
    FindingLog log = log(input.reportId(), input.asOf());
    LocalDate day = input.cursor() == null ? input.from() : LocalDate.parse(input.cursor());
    for (; !day.isAfter(input.to()); day = day.plusDays(1)) {
      check.accept(new DayCheckInput(input.reportId(), day, input.asOf(), input.repair()), log);
      if (log.examinedSoFar() >= gatewayBudget && day.isBefore(input.to())) {
        return log.finish(deps.reports(), input.asOf(), day.plusDays(1).toString());
      }
    }
    return log.finish(deps.reports(), input.asOf(), null);
  }

  @Override
  public void closeReport(ReconciliationSummary summary) {
    deps.reports().save(summary);
    LOG.info(
        "reconciliation report {} {}: {} subscriptions, {} charges, {} events; findings {}",
        summary.reportId(),
        summary.status(),
        summary.counts().subscriptionsChecked(),
        summary.counts().chargesCompared(),
        summary.counts().eventsCompared(),
        summary.counts().findings());
  }

  private FindingLog log(String reportId, Instant asOf) {
    return new FindingLog(reportId, asOf, deps.onFinding());
  }
}
