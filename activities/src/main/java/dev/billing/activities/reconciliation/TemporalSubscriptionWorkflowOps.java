package dev.billing.activities.reconciliation;

import dev.billing.activities.payments.TemporalPaymentEventSignals;
import dev.billing.domain.BillingIds;
import dev.billing.domain.PaymentEvent;
import dev.billing.workflows.BillingSearchAttributes;
import dev.billing.workflows.SubscriptionInput;
import dev.billing.workflows.SubscriptionStartOptions;
import dev.billing.workflows.SubscriptionWorkflow;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.enums.v1.WorkflowIdConflictPolicy;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.api.workflow.v1.PendingActivityInfo;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import io.temporal.client.WorkflowExecutionDescription;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowOptions;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/** {@link SubscriptionWorkflowOps} on a Temporal client. */
public final class TemporalSubscriptionWorkflowOps implements SubscriptionWorkflowOps {
  /** The payment event signal's name ({@link SubscriptionWorkflow#paymentEvent}). */
  private static final String SIGNAL = "paymentEvent";

  private final WorkflowClient client;
  private final String taskQueue;
  private final TemporalPaymentEventSignals signals;

  /**
   * @param records where an ended subscription's record is read when a return starts its run again
   * @param clock the restart's "now" (the dev stack's follows the test server)
   */
  public TemporalSubscriptionWorkflowOps(
      WorkflowClient client,
      String taskQueue,
      TemporalPaymentEventSignals.Records records,
      InstantSource clock) {
    this.client = Objects.requireNonNull(client, "client");
    this.taskQueue = Objects.requireNonNull(taskQueue, "taskQueue");
    this.signals = new TemporalPaymentEventSignals(client, taskQueue, records, clock);
  }

  @Override
  public WorkflowView describe(String subscriptionId) {
    WorkflowExecutionDescription description;
    try {
      description = client.newUntypedWorkflowStub(BillingIds.workflowId(subscriptionId)).describe();
    } catch (RuntimeException e) {
      if (notFound(e)) {
        return WorkflowView.missing();
      }
      throw e;
    }
    String billingStatus =
        description.getTypedSearchAttributes().get(BillingSearchAttributes.BILLING_STATUS);
    WorkflowExecutionStatus status = description.getStatus();
    if (status == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
      return new WorkflowView(
          WorkflowView.State.RUNNING,
          description.getExecution().getRunId(),
          null,
          null,
          billingStatus,
          pending(description.getRawDescription()));
    }
    return new WorkflowView(
        WorkflowView.State.CLOSED,
        description.getExecution().getRunId(),
        status.name().replace("WORKFLOW_EXECUTION_STATUS_", ""),
        description.getCloseTime(),
        billingStatus,
        null);
  }

  @Override
  public boolean restart(SubscriptionInput input, Instant pastDueSince) {
    var subscription = input.subscription();
    // A closed run may be followed by a new one; an open one is never replaced.
    WorkflowOptions options =
        SubscriptionStartOptions.of(
            subscription,
            taskQueue,
            pastDueSince,
            WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
            WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_FAIL);
    SubscriptionWorkflow workflow = client.newWorkflowStub(SubscriptionWorkflow.class, options);
    try {
      WorkflowClient.start(workflow::run, input);
      return true;
    } catch (WorkflowExecutionAlreadyStarted e) {
      return false;
    }
  }

  @Override
  public void send(PaymentEvent event) {
    signals.send(event);
  }

  @Override
  public boolean startEnded(PaymentEvent event) {
    return signals.startEnded(event);
  }

  @Override
  public boolean received(String subscriptionId, String eventId) {
    var converter = client.getOptions().getDataConverter();
    return client.fetchHistory(BillingIds.workflowId(subscriptionId)).getEvents().stream()
        .filter(
            e ->
                e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED
                    && e.getWorkflowExecutionSignaledEventAttributes()
                        .getSignalName()
                        .equals(SIGNAL))
        .map(
            e ->
                converter.fromPayloads(
                    0,
                    Optional.of(e.getWorkflowExecutionSignaledEventAttributes().getInput()),
                    PaymentEvent.class,
                    PaymentEvent.class))
        .anyMatch(event -> event != null && eventId.equals(event.eventId()));
  }

  private static String pending(DescribeWorkflowExecutionResponse raw) {
    if (raw.getPendingActivitiesCount() == 0) {
      return "no activity pending";
    }
    return raw.getPendingActivitiesList().stream()
        .map(TemporalSubscriptionWorkflowOps::describe)
        .collect(Collectors.joining("; "));
  }

  private static String describe(PendingActivityInfo activity) {
    String failure = activity.hasLastFailure() ? activity.getLastFailure().getMessage() : null;
    return activity.getActivityType().getName()
        + " attempt "
        + activity.getAttempt()
        + (failure == null || failure.isEmpty() ? "" : " (last failure: " + failure + ")");
  }

  private static boolean notFound(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof WorkflowNotFoundException) {
        return true;
      }
      if (t instanceof StatusRuntimeException grpc
          && grpc.getStatus().getCode() == Status.Code.NOT_FOUND) {
        return true;
      }
    }
    return false;
  }
}
