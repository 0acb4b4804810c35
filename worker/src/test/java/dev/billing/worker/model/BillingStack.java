package dev.billing.worker.model;

import dev.billing.activities.ledger.GatewayCoverage;
import dev.billing.activities.ledger.LedgerInput;
import dev.billing.activities.ledger.RecordedPeriod;
import dev.billing.activities.ledger.RecordedReceipt;
import dev.billing.activities.notifications.OutboxNotifier;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayChargeState.Status;
import dev.billing.activities.payments.GatewayEvent;
import dev.billing.activities.payments.PaymentEventIntake;
import dev.billing.activities.payments.TemporalPaymentEventSignals;
import dev.billing.activities.payments.sandbox.SandboxCharge;
import dev.billing.activities.payments.sandbox.SandboxGateway;
import dev.billing.activities.payments.sandbox.SandboxPaymentMethods;
import dev.billing.activities.payments.sandbox.SandboxRefund;
import dev.billing.activities.reconciliation.GatewayOutcomes;
import dev.billing.domain.BillingIds;
import dev.billing.domain.Money;
import dev.billing.domain.Period;
import dev.billing.store.DynamoBillingStore;
import dev.billing.store.HistoryEntry;
import dev.billing.store.Page;
import dev.billing.store.PageRequest;
import dev.billing.store.ReconciliationQueries;
import dev.billing.store.StoreSettings;
import dev.billing.store.TableNames;
import dev.billing.store.events.PaymentEventStore;
import dev.billing.store.testing.BackgroundClose;
import dev.billing.store.testing.LocalDynamoDb;
import dev.billing.worker.BillingWorker;
import dev.billing.workflows.BillingSearchAttributes;
import dev.billing.workflows.TaskQueues;
import io.grpc.Status.Code;
import io.grpc.StatusRuntimeException;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.enums.v1.WorkflowTaskFailedCause;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse;
import io.temporal.api.workflowservice.v1.GetWorkflowExecutionHistoryRequest;
import io.temporal.api.workflowservice.v1.GetWorkflowExecutionHistoryResponse;
import io.temporal.client.WorkflowClient;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptor;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptorBase;
import io.temporal.common.interceptors.WorkerInterceptorBase;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerFactoryOptions;
import io.temporal.worker.WorkerOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The system under test, one per try: DynamoDB Local (embedded), Temporal's test server with time
 * skipping, the production workflow and activities registered by {@link BillingWorker}, and the
 * sandbox gateway on the workflow clock behind {@link FaultyGateway}. Gateway events reach the
 * workflows as the webhook endpoint delivers them (the {@code paymentEvent} signal).
 */
final class BillingStack implements AutoCloseable {
  static final Instant START = Instant.parse("2031-01-01T00:00:00Z");

  /**
   * Real time allowed for the stack to come to rest after one step: a second or two on a quiet
   * machine, tens of seconds beside a full build. A stuck workflow stays stuck, so a wide bound
   * only delays its report.
   */
  private static final Duration REST_BOUND = Duration.ofSeconds(120);

  /**
   * More attempts than any bounded retry policy makes (six): an activity retried this often (the
   * record's retries are unlimited) waits for an operator, which no sequence has.
   */
  private static final int STUCK_ATTEMPTS = 20;

  /**
   * Workflow time given to activities waiting out a retry backoff: doubled while they still wait.
   */
  private static final Duration FIRST_NUDGE = Duration.ofSeconds(1);

  private static final Duration LAST_NUDGE = Duration.ofMinutes(1);
  private static final int BUSY_POLLS_BEFORE_NUDGE = 100;

  private final LocalDynamoDb local = LocalDynamoDb.start();
  private final DynamoDbClient dynamo = local.client();
  final DynamoBillingStore store;
  final TestWorkflowEnvironment env;
  final SandboxGateway sandbox;
  final FaultyGateway gateway;
  final SubscriptionUpdates updates;
  private final OutboxNotifier notifier = new OutboxNotifier();
  private final PaymentEventIntake intake;
  private final Map<String, GatewayEvent> delivered = new LinkedHashMap<>();
  private final List<String> brokenWorkflows = new ArrayList<>();
  private final AtomicInteger activitiesRunning = new AtomicInteger();
  private WorkerFactory factory;
  private int restarts;

  BillingStack() {
    TableNames tables = new TableNames("billing", "billing-history");
    local.createTables(tables);
    store = new DynamoBillingStore(dynamo, tables, StoreSettings.defaults(new byte[32]));
    env =
        TestWorkflowEnvironment.newInstance(
            TestEnvironmentOptions.newBuilder().setInitialTime(START).build());
    for (var key : BillingSearchAttributes.ALL) {
      env.registerSearchAttribute(key.getName(), key.getValueType());
    }
    sandbox = new SandboxGateway(() -> Instant.ofEpochMilli(env.currentTimeMillis()));
    gateway = new FaultyGateway(sandbox);
    updates = new SubscriptionUpdates(client(), TaskQueues.BILLING);
    intake =
        new PaymentEventIntake(
            new PaymentEventStore(dynamo, tables.paymentEvents(), new byte[32]),
            new TemporalPaymentEventSignals(
                client(),
                TaskQueues.BILLING,
                TemporalPaymentEventSignals.Records.of(new ReconciliationQueries(store)),
                this::now));
    startWorker();
  }

  WorkflowClient client() {
    return env.getWorkflowClient();
  }

  Instant now() {
    return Instant.ofEpochMilli(env.currentTimeMillis());
  }

  int restarts() {
    return restarts;
  }

  /**
   * Shuts the worker down and starts a new one on the same task queues: every workflow is replayed
   * from its history in a fresh cache on its next task, so a nondeterministic change shows up as a
   * failed workflow task ({@link #awaitRest} reports it).
   */
  void restartWorker() {
    factory.shutdown();
    factory.awaitTermination(30, TimeUnit.SECONDS);
    restarts++;
    startWorker();
  }

  private void startWorker() {
    // No workflow cache: every workflow task replays its history (a determinism check). And no
    // sticky queue, which the cache size alone does not turn off: the worker asks the server to
    // route a workflow's next tasks to its own sticky queue unless that queue's schedule-to-start
    // timeout is zero. A real server moves such a task to the normal queue once the timeout passes
    // or the worker shuts down; the test server never does, so after a restart the task would wait
    // on a queue no one polls.
    factory =
        WorkerFactory.newInstance(
            client(),
            WorkerFactoryOptions.newBuilder()
                .setWorkflowCacheSize(0)
                .setWorkerInterceptors(new CountsActivities(activitiesRunning))
                .build());
    WorkerOptions options =
        WorkerOptions.newBuilder().setStickyQueueScheduleToStartTimeout(Duration.ZERO).build();
    BillingWorker.register(
        factory,
        TaskQueues.BILLING,
        options,
        new BillingWorker.Adapters(store, gateway, notifier),
        BillingWorker.DEFAULT_PAYMENT_ACTIVITIES_PER_SECOND);
    factory.start();
  }

  /** Moves the workflow clock: due timers fire, activities then run in real time. */
  void sleep(Duration duration) {
    env.sleep(duration);
  }

  /**
   * Waits (bounded) until no workflow has a task or an activity outstanding and every gateway event
   * due by now was delivered. Activities that wait out a retry backoff get workflow time, as they
   * would get real time in production.
   */
  void awaitRest(Collection<String> subscriptionIds) {
    long deadline = System.nanoTime() + REST_BOUND.toNanos();
    int quietPolls = 0;
    Duration nudge = FIRST_NUDGE;
    int busyPolls = 0;
    while (true) {
      int sent = deliverEvents();
      Map<String, Activity> activity = new LinkedHashMap<>();
      for (String id : subscriptionIds) {
        activity.put(id, activityOf(BillingIds.workflowId(id)));
      }
      boolean quiet = sent == 0 && activity.values().stream().allMatch(a -> a == Activity.QUIET);
      quietPolls = quiet ? quietPolls + 1 : 0;
      if (quietPolls >= 2) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "the stack did not come to rest within "
                + REST_BOUND
                + ": "
                + activity
                + ", "
                + activitiesRunning.get()
                + " activities executing; pending: "
                + pendingActivities(subscriptionIds));
      }
      // The test server reports an activity waiting out its retry backoff as started, so whether
      // one is executing is counted at the worker.
      boolean waitingOnBackoff =
          activity.containsValue(Activity.ACTIVITY_PENDING)
              && !activity.containsValue(Activity.BUSY)
              && activitiesRunning.get() == 0;
      // A workflow task that waits on a timeout (schedule-to-start) needs the workflow clock to
      // move,
      // and it moves only while someone sleeps.
      busyPolls =
          activity.containsValue(Activity.BUSY) && activitiesRunning.get() == 0 ? busyPolls + 1 : 0;
      if (waitingOnBackoff || busyPolls > BUSY_POLLS_BEFORE_NUDGE) {
        env.sleep(nudge);
        nudge =
            nudge.multipliedBy(2).compareTo(LAST_NUDGE) > 0 ? LAST_NUDGE : nudge.multipliedBy(2);
      } else {
        nudge = FIRST_NUDGE;
        pause(quiet ? 5 : 15);
      }
    }
  }

  private List<String> pendingActivities(Collection<String> subscriptionIds) {
    List<String> pending = new ArrayList<>();
    for (String id : subscriptionIds) {
      describe(BillingIds.workflowId(id))
          .ifPresent(
              d ->
                  d.getPendingActivitiesList()
                      .forEach(
                          a ->
                              pending.add(
                                  id
                                      + " "
                                      + a.getActivityType().getName()
                                      + " attempt "
                                      + a.getAttempt()
                                      + ": "
                                      + a.getLastFailure().getMessage())));
    }
    return pending;
  }

  private java.util.Optional<DescribeWorkflowExecutionResponse> describe(String workflowId) {
    try {
      return java.util.Optional.of(
          env.getWorkflowServiceStubs()
              .blockingStub()
              .describeWorkflowExecution(
                  DescribeWorkflowExecutionRequest.newBuilder()
                      .setNamespace(env.getNamespace())
                      .setExecution(WorkflowExecution.newBuilder().setWorkflowId(workflowId))
                      .build()));
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Code.NOT_FOUND) {
        return java.util.Optional.empty(); // never started: its create was refused
      }
      throw e;
    }
  }

  /** Workflow runs that failed or had a workflow task fail (nondeterminism, a bug), described. */
  List<String> brokenWorkflows() {
    return List.copyOf(brokenWorkflows);
  }

  /** Sends every event delivered so far once more, as a webhook retry or the poller would. */
  void redeliverEvents() {
    List.copyOf(delivered.values()).forEach(this::deliver);
  }

  int deliveredEvents() {
    return delivered.size();
  }

  /** One subscription's books: all its charges at the sandbox, all its periods and receipts. */
  LedgerInput books(String subscriptionId) {
    Instant now = now();
    List<SandboxRefund> refunds = sandbox.refunds();
    List<GatewayChargeState> charges =
        sandbox.charges().stream()
            .filter(c -> subscriptionId.equals(c.subscriptionId()))
            .map(c -> stateOf(c, refunds, now))
            .toList();
    List<RecordedPeriod> periods =
        periods(subscriptionId).stream().map(RecordedPeriod::of).toList();
    List<RecordedReceipt> receipts =
        all(
                token ->
                    store.getReceiptsByAccount(
                        account(subscriptionId),
                        Instant.EPOCH,
                        new PageRequest(token, PageRequest.MAX_LIMIT)))
            .stream()
            .filter(r -> r.subscriptionId().equals(subscriptionId))
            .map(RecordedReceipt::of)
            .toList();
    return new LedgerInput(subscriptionId, charges, periods, receipts, GatewayCoverage.complete());
  }

  /** The gateway's refunds of the subscription's charges (replays of a key are not new refunds). */
  List<SandboxRefund> refunds(String subscriptionId) {
    List<String> charges =
        sandbox.charges().stream()
            .filter(c -> subscriptionId.equals(c.subscriptionId()))
            .map(SandboxCharge::transactionId)
            .toList();
    return sandbox.refunds().stream().filter(r -> charges.contains(r.transactionId())).toList();
  }

  /** The record's history of the subscription, oldest first. */
  List<HistoryEntry> recordHistory(String subscriptionId) {
    return all(
        token -> store.getHistory(subscriptionId, new PageRequest(token, PageRequest.MAX_LIMIT)));
  }

  List<Period> periods(String subscriptionId) {
    return all(
        token ->
            store.getPeriods(
                account(subscriptionId),
                subscriptionId,
                new PageRequest(token, PageRequest.MAX_LIMIT)));
  }

  static String account(String subscriptionId) {
    return "acc-" + subscriptionId;
  }

  /** In the background (BackgroundClose): the next sequence starts on a stack of its own. */
  @Override
  public void close() {
    BackgroundClose.close(
        () -> {
          try {
            if (factory != null) {
              factory.shutdownNow();
            }
            env.close();
          } finally {
            local.close();
          }
        });
  }

  private enum Activity {
    QUIET,
    BUSY,
    ACTIVITY_PENDING
  }

  private Activity activityOf(String workflowId) {
    var found = describe(workflowId);
    if (found.isEmpty()) {
      return Activity.QUIET;
    }
    DescribeWorkflowExecutionResponse described = found.get();
    WorkflowExecution run = described.getWorkflowExecutionInfo().getExecution();
    List<HistoryEvent> history = history(run);
    for (HistoryEvent event : history) {
      // UNHANDLED_COMMAND is Temporal refusing a completion that a signal overtook: the next task
      // carries the signal and the run acts on it (a redelivered event to a run that is ending).
      if (event.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED
          && event.getWorkflowTaskFailedEventAttributes().getCause()
              != WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND) {
        note(
            workflowId
                + " run "
                + run.getRunId()
                + ": workflow task failed: "
                + event.getWorkflowTaskFailedEventAttributes().getCause()
                + " "
                + event.getWorkflowTaskFailedEventAttributes().getFailure().getMessage());
      }
    }
    WorkflowExecutionStatus status = described.getWorkflowExecutionInfo().getStatus();
    if (status != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
      if (status != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED
          && status != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW) {
        note(workflowId + " run " + run.getRunId() + " ended " + status);
      }
      return Activity.QUIET;
    }
    EventType last =
        history.isEmpty()
            ? EventType.EVENT_TYPE_UNSPECIFIED
            : history.get(history.size() - 1).getEventType();
    if (last == EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED
        || last == EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED
        || last == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED) {
      return Activity.BUSY;
    }
    for (var pending : described.getPendingActivitiesList()) {
      if (pending.getAttempt() > STUCK_ATTEMPTS) {
        throw new AssertionError(
            workflowId
                + " is stuck: "
                + pending.getActivityType().getName()
                + " failed "
                + (pending.getAttempt() - 1)
                + " times, last with: "
                + pending.getLastFailure().getMessage());
      }
    }
    return described.getPendingActivitiesCount() > 0 ? Activity.ACTIVITY_PENDING : Activity.QUIET;
  }

  private void note(String broken) {
    if (!brokenWorkflows.contains(broken)) {
      brokenWorkflows.add(broken);
    }
  }

  private List<HistoryEvent> history(WorkflowExecution run) {
    List<HistoryEvent> events = new ArrayList<>();
    com.google.protobuf.ByteString token = com.google.protobuf.ByteString.EMPTY;
    do {
      GetWorkflowExecutionHistoryResponse page =
          env.getWorkflowServiceStubs()
              .blockingStub()
              .getWorkflowExecutionHistory(
                  GetWorkflowExecutionHistoryRequest.newBuilder()
                      .setNamespace(env.getNamespace())
                      .setExecution(run)
                      .setNextPageToken(token)
                      .build());
      events.addAll(page.getHistory().getEventsList());
      token = page.getNextPageToken();
    } while (!token.isEmpty());
    return events;
  }

  /**
   * Events due by now and not yet delivered, taken in as the webhook endpoint takes them (stored,
   * signalled, or an ended subscription's run started again for a return); how many.
   */
  private int deliverEvents() {
    // Stripe's webhooks are not requests of ours: reading them from the rate-limited list, as often
    // as the rest check polls, would throttle the workflow's own calls.
    int sent = 0;
    for (GatewayEvent e : sandbox.events(Instant.EPOCH, Instant.MAX)) {
      if (!delivered.containsKey(e.id())) {
        delivered.put(e.id(), e);
        deliver(e);
        sent++;
      }
    }
    return sent;
  }

  private void deliver(GatewayEvent e) {
    intake.accept(
        GatewayOutcomes.stored("sandbox", e, now()), GatewayOutcomes.signal("sandbox", e));
  }

  /** What a list read of the sandbox reports of a charge now, without spending its rate limit. */
  private static GatewayChargeState stateOf(
      SandboxCharge c, List<SandboxRefund> refunds, Instant now) {
    Status status = c.statusAt(now);
    Money refunded =
        refunds.stream()
            .filter(r -> r.transactionId().equals(c.transactionId()))
            .map(SandboxRefund::amount)
            .reduce(Money.zero(c.amount().currency()), Money::plus);
    String code =
        status == Status.FAILED
            ? c.declineCode()
            : status == Status.RETURNED ? SandboxPaymentMethods.RETURN_CODE : null;
    return new GatewayChargeState(
        status,
        c.idempotencyKey(),
        c.transactionId(),
        c.amount(),
        refunded,
        c.subscriptionId(),
        c.cycle(),
        c.at(),
        c.settledAt(now),
        status == Status.RETURNED ? c.returnsAt() : null,
        code,
        null);
  }

  private static <T> List<T> all(Function<String, Page<T>> page) {
    List<T> items = new ArrayList<>();
    String token = null;
    do {
      Page<T> p = page.apply(token);
      items.addAll(p.items());
      token = p.nextPageToken();
    } while (token != null);
    return items;
  }

  /** Counts the activity executions under way in this worker. */
  private static final class CountsActivities extends WorkerInterceptorBase {
    private final AtomicInteger running;

    CountsActivities(AtomicInteger running) {
      this.running = running;
    }

    @Override
    public ActivityInboundCallsInterceptor interceptActivity(ActivityInboundCallsInterceptor next) {
      return new ActivityInboundCallsInterceptorBase(next) {
        @Override
        public ActivityOutput execute(ActivityInput input) {
          running.incrementAndGet();
          try {
            return super.execute(input);
          } finally {
            running.decrementAndGet();
          }
        }
      };
    }
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
