package dev.billing.activities.reconciliation;

import dev.billing.activities.payments.ChargeQuery;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.PaymentGateway;
import dev.billing.domain.BillingIds;
import dev.billing.domain.DueInstants;
import dev.billing.domain.DunningPolicy;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.reconciliation.FindingKind;
import dev.billing.domain.reconciliation.Repair;
import dev.billing.store.BillingStore;
import dev.billing.store.DuePayment;
import dev.billing.store.ReconciliationQueries;
import dev.billing.workflows.SubscriptionInput;
import dev.billing.workflows.subscription.SubscriptionRestart;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * DynamoDB against Temporal for one page of GSI-2 (one NextPaymentDate). Every subscription there
 * is due that day, or was and never moved on, so over a month each billing subscription passes
 * through the window once and a stuck one stays in it: the cost follows the subscriptions due,
 * never the table's size. For each, with its record read consistently:
 *
 * <ul>
 *   <li>no workflow, or a closed one, while the record still bills: started again from the record
 *       ({@link SubscriptionRestart}); the restarted run re-sends the same idempotency keys, so a
 *       charge the lost run made is replayed by the gateway, not repeated;
 *   <li>a running workflow whose BillingStatus disagrees with the record: reported;
 *   <li>a payment more than {@link #GRACE} past its due instant and still not recorded: diagnosed
 *       from the workflow's pending activities and, when the gateway holds an outcome for the
 *       period's charge, that outcome is signalled to the workflow as a payment event (it dedupes
 *       by id and judges by its own state, as for a webhook).
 * </ul>
 */
final class DriftCheck {
  /**
   * How late a payment may be recorded before it counts as overdue: timers fire at the
   * subscription's due instant (its time of day in its zone, DueInstants) and a charge with its
   * retries takes about a minute, so two hours only flags what is really stuck (a worker down, an
   * activity failing for good).
   */
  static final Duration GRACE = Duration.ofHours(2);

  static final int PAGE_SIZE = 100;

  private final BillingStore store;
  private final ReconciliationQueries queries;
  private final SubscriptionWorkflowOps workflows;
  private final PaymentGateway gateway;
  private final String provider;
  private final DunningPolicy dunning;
  private final int pageSize;

  DriftCheck(
      BillingStore store,
      ReconciliationQueries queries,
      SubscriptionWorkflowOps workflows,
      PaymentGateway gateway,
      String provider,
      DunningPolicy dunning,
      int pageSize) {
    this.pageSize = pageSize;
    this.store = store;
    this.queries = queries;
    this.workflows = workflows;
    this.gateway = gateway;
    this.provider = provider;
    this.dunning = dunning;
  }

  /**
   * @return the cursor of the next page, null when the date is done
   */
  String checkPage(DueCheckInput input, FindingLog log, Runnable heartbeat) {
    ReconciliationQueries.DueBatch batch =
        queries.duePayments(input.date(), input.cursor(), pageSize);
    for (DuePayment due : batch.items()) {
      heartbeat.run();
      check(due.accountId(), due.subscriptionId(), input.asOf(), input.repair(), log);
    }
    return batch.nextCursor();
  }

  /**
   * One subscription, whether GSI-2 listed it or the API named it (a change that found no workflow,
   * which for an open-ended pause is the only way its drift is ever seen).
   */
  void check(
      String accountId, String subscriptionId, Instant asOf, boolean repair, FindingLog log) {
    log.examined();
    Optional<Subscription> stored = store.getSubscription(accountId, subscriptionId);
    if (stored.isEmpty() || stored.get().status().isTerminal()) {
      return; // the index lags the table: gone or cancelled since
    }
    WorkflowView view = workflows.describe(subscriptionId);
    if (view.state() != WorkflowView.State.RUNNING) {
      // Read again after the describe: a cancellation recorded just before the run ended is not
      // drift.
      Subscription record =
          store
              .getSubscription(accountId, subscriptionId)
              .filter(s -> !s.status().isTerminal())
              .orElse(null);
      if (record != null) {
        restart(record, view, asOf, repair, log);
      }
      return;
    }
    Subscription record = stored.get();
    if (view.billingStatus() != null && !view.billingStatus().equals(record.status().name())) {
      log.add(
          FindingKind.STATUS_MISMATCH,
          record.subscriptionId(),
          record.accountId(),
          record.cycle(),
          BillingIds.workflowId(record.subscriptionId()),
          "the record says "
              + record.status()
              + ", the workflow's BillingStatus says "
              + view.billingStatus()
              + "; the workflow is the only writer of the record: compare its history with the state query",
          Repair.NONE);
    }
    if (overdue(record, asOf)) {
      overdue(record, view, asOf, repair, log);
    }
  }

  /**
   * Its next payment (for a paused one: the date billing restarts, when the pause has an end) is
   * more than {@link #GRACE} in the past and the record has not moved on.
   */
  private static boolean overdue(Subscription record, Instant asOf) {
    if (record.nextPaymentDate() == null) {
      return false;
    }
    // The subscription's own time of day on that date (midnight for one created without a window).
    Instant dueAt =
        DueInstants.at(record.schedule(), record.nextPaymentDate(), record.subscriptionId());
    return dueAt.plus(GRACE).isBefore(asOf);
  }

  private void restart(
      Subscription record, WorkflowView view, Instant asOf, boolean repair, FindingLog log) {
    FindingKind kind =
        view.state() == WorkflowView.State.MISSING
            ? FindingKind.WORKFLOW_MISSING
            : FindingKind.WORKFLOW_CLOSED;
    String what =
        kind == FindingKind.WORKFLOW_MISSING
            ? "no workflow " + BillingIds.workflowId(record.subscriptionId())
            : "workflow "
                + BillingIds.workflowId(record.subscriptionId())
                + " ended "
                + view.closeStatus()
                + (view.closedAt() == null ? "" : " at " + view.closedAt());
    String situation =
        what
            + " while the record is "
            + record.status()
            + " (version "
            + record.version()
            + ", cycle "
            + record.cycle()
            + " due "
            + record.nextPaymentDate()
            + ")";
    if (!repair) {
      log.add(
          kind,
          record.subscriptionId(),
          record.accountId(),
          record.cycle(),
          view.runId(),
          situation + "; not restarted (report only)",
          Repair.NONE);
      return;
    }
    List<Period> periods = queries.periods(record.accountId(), record.subscriptionId());
    SubscriptionInput restart = SubscriptionRestart.fromRecord(record, periods, dunning, asOf);
    try {
      boolean started = workflows.restart(restart, pastDueSince(record, periods));
      log.add(
          kind,
          record.subscriptionId(),
          record.accountId(),
          record.cycle(),
          view.runId(),
          situation
              + (started
                  ? "; restarted from the record with "
                      + restart.collections().open().size()
                      + " open period(s)"
                  : "; a run was started meanwhile, left as it is"),
          started ? Repair.WORKFLOW_RESTARTED : Repair.NONE);
    } catch (RuntimeException e) {
      log.add(
          kind,
          record.subscriptionId(),
          record.accountId(),
          record.cycle(),
          view.runId(),
          situation + "; restart failed: " + e.getMessage(),
          Repair.FAILED);
    }
  }

  /** When the oldest unpaid period was recorded unpaid: what PastDueSince shows after a restart. */
  private static Instant pastDueSince(Subscription record, List<Period> periods) {
    if (record.status() != SubscriptionStatus.PAST_DUE) {
      return null;
    }
    return periods.stream()
        .filter(p -> p.status() == PeriodStatus.ERROR)
        .min(Comparator.comparingLong(Period::cycle))
        .map(Period::updatedAt)
        .orElse(null);
  }

  private void overdue(
      Subscription record, WorkflowView view, Instant asOf, boolean repair, FindingLog log) {
    long cycle = record.cycle();
    String situation =
        "payment of cycle "
            + cycle
            + " was due "
            + record.nextPaymentDate()
            + " ("
            + record.schedule().timeZone()
            + ") and is not recorded; the workflow runs: "
            + view.pending();
    Optional<Period> period = queries.period(record.accountId(), record.subscriptionId(), cycle);
    int attempts = period.map(p -> Math.max(1, p.attempts())).orElse(1);
    String key = BillingIds.chargeKey(record.subscriptionId(), cycle, attempts);
    GatewayChargeState charge;
    try {
      charge =
          gateway.lookUp(
              new ChargeQuery(
                  key,
                  record.paymentMethod().token(),
                  record.schedule().startOfDay(record.schedule().dueDate(cycle))));
    } catch (RuntimeException e) {
      log.add(
          FindingKind.PAYMENT_OVERDUE,
          record.subscriptionId(),
          record.accountId(),
          cycle,
          key,
          situation + "; the gateway could not be asked about " + key + ": " + e.getMessage(),
          Repair.FAILED);
      return;
    }
    var event = GatewayOutcomes.event(provider, charge, asOf);
    if (event == null) {
      log.add(
          FindingKind.PAYMENT_OVERDUE,
          record.subscriptionId(),
          record.accountId(),
          cycle,
          key,
          situation
              + "; the gateway has "
              + (charge.status() == GatewayChargeState.Status.NOT_FOUND
                  ? "no charge"
                  : "a " + charge.status() + " charge")
              + " for "
              + key,
          Repair.NONE);
      return;
    }
    if (!repair) {
      log.add(
          FindingKind.PAYMENT_OVERDUE,
          record.subscriptionId(),
          record.accountId(),
          cycle,
          key,
          situation + "; the gateway says " + charge.status() + " (not signalled: report only)",
          Repair.NONE);
      return;
    }
    try {
      if (workflows.received(record.subscriptionId(), event.eventId())) {
        log.add(
            FindingKind.PAYMENT_OVERDUE,
            record.subscriptionId(),
            record.accountId(),
            cycle,
            key,
            situation
                + "; the gateway says "
                + charge.status()
                + ", and "
                + GatewayOutcomes.unchanged(event),
            Repair.NONE);
        return;
      }
      workflows.send(event);
      log.add(
          FindingKind.PAYMENT_OVERDUE,
          record.subscriptionId(),
          record.accountId(),
          cycle,
          key,
          situation
              + "; the gateway says "
              + charge.status()
              + "; "
              + GatewayOutcomes.signalled(event),
          Repair.WORKFLOW_SIGNALLED);
    } catch (RuntimeException e) {
      log.add(
          FindingKind.PAYMENT_OVERDUE,
          record.subscriptionId(),
          record.accountId(),
          cycle,
          key,
          situation + "; signalling " + charge.status() + " failed: " + e.getMessage(),
          Repair.FAILED);
    }
  }
}
