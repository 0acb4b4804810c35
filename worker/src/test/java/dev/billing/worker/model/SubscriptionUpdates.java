package dev.billing.worker.model;

import dev.billing.domain.BillingIds;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.Subscription;
import dev.billing.domain.Term;
import dev.billing.workflows.BillingDayChange;
import dev.billing.workflows.CancelRequest;
import dev.billing.workflows.PauseRequest;
import dev.billing.workflows.PayNowRequest;
import dev.billing.workflows.PaymentMethodChange;
import dev.billing.workflows.PlanChangeRequest;
import dev.billing.workflows.ReactivateRequest;
import dev.billing.workflows.RefundRequest;
import dev.billing.workflows.ResumeRequest;
import dev.billing.workflows.SubscriptionInput;
import dev.billing.workflows.SubscriptionStartOptions;
import dev.billing.workflows.SubscriptionState;
import dev.billing.workflows.SubscriptionWorkflow;
import dev.billing.workflows.WaiveRequest;
import io.temporal.api.enums.v1.WorkflowIdConflictPolicy;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.client.UpdateOptions;
import io.temporal.client.WithStartWorkflowOperation;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowUpdateHandle;
import io.temporal.client.WorkflowUpdateStage;
import java.time.LocalDate;

/**
 * Every change the model asks for, sent as the API sends it (api's SubscriptionWorkflows): create
 * with update-with-start, every other change as an update that is first accepted (a refusal comes
 * back from {@code startUpdate}) and then completes. The only place that knows the update request
 * records, so a change of their shape is a change of this file.
 *
 * <p>{@code requestId} is the model's id of the request, deterministic per step so a shrunk run
 * asks the same: carried in the request (upgrade and refund keys derive from it) and sent as the
 * Temporal update id, as the API does with its Idempotency-Key or generated id.
 */
final class SubscriptionUpdates {
  private static final String ACTOR = "model-test";

  private final WorkflowClient client;
  private final String taskQueue;

  SubscriptionUpdates(WorkflowClient client, String taskQueue) {
    this.client = client;
    this.taskQueue = taskQueue;
  }

  SubscriptionState create(Subscription subscription) {
    SubscriptionWorkflow workflow =
        client.newWorkflowStub(
            SubscriptionWorkflow.class,
            SubscriptionStartOptions.of(
                subscription,
                taskQueue,
                null,
                WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
                WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING));
    WithStartWorkflowOperation<SubscriptionState> start =
        new WithStartWorkflowOperation<>(
            workflow::run, SubscriptionInput.requested(subscription, ACTOR));
    return WorkflowClient.executeUpdateWithStart(
        workflow::created,
        UpdateOptions.newBuilder(SubscriptionState.class)
            .setWaitForStage(WorkflowUpdateStage.COMPLETED)
            .build(),
        start);
  }

  WorkflowUpdateHandle<SubscriptionState> cancel(
      String sub, String requestId, boolean atPeriodEnd, boolean refundUnused) {
    CancelRequest request =
        new CancelRequest("model", ACTOR, atPeriodEnd, refundUnused).withRequestId(requestId);
    return send(sub, requestId, (w, o) -> WorkflowClient.startUpdate(w::cancel, request, o));
  }

  WorkflowUpdateHandle<SubscriptionState> pause(
      String sub, String requestId, Integer cycles, LocalDate until) {
    PauseRequest request = new PauseRequest(cycles, until, "model", ACTOR).withRequestId(requestId);
    return send(sub, requestId, (w, o) -> WorkflowClient.startUpdate(w::pause, request, o));
  }

  WorkflowUpdateHandle<SubscriptionState> resume(String sub, String requestId) {
    ResumeRequest request = new ResumeRequest(ACTOR).withRequestId(requestId);
    return send(sub, requestId, (w, o) -> WorkflowClient.startUpdate(w::resume, request, o));
  }

  WorkflowUpdateHandle<SubscriptionState> changePlan(
      String sub,
      String requestId,
      String sku,
      Money price,
      PlanChangeRequest.Effective effective) {
    return changePlan(sub, requestId, sku, price, effective, null);
  }

  /**
   * @param term null keeps the subscription's term
   */
  WorkflowUpdateHandle<SubscriptionState> changePlan(
      String sub,
      String requestId,
      String sku,
      Money price,
      PlanChangeRequest.Effective effective,
      Term term) {
    PlanChangeRequest request =
        new PlanChangeRequest(sku, price, effective, term, ACTOR, null).withRequestId(requestId);
    return send(sub, requestId, (w, o) -> WorkflowClient.startUpdate(w::changePlan, request, o));
  }

  /** A reactivation sent to the running workflow (a cancellation at period end taken back). */
  WorkflowUpdateHandle<SubscriptionState> reactivate(String sub, String requestId) {
    ReactivateRequest request = new ReactivateRequest("model", ACTOR, requestId);
    return send(sub, requestId, (w, o) -> WorkflowClient.startUpdate(w::reactivate, request, o));
  }

  /**
   * A reactivation of an ended subscription as the API sends it (SubscriptionWorkflows
   * reactivateAfterEnd): its workflow started again from the record (ALLOW_DUPLICATE, it is closed)
   * with the reactivation as its update; USE_EXISTING attaches to a run of it still open. Returned
   * once accepted, like every other change.
   */
  WorkflowUpdateHandle<SubscriptionState> reactivateAfterEnd(
      SubscriptionInput restart, String requestId) {
    ReactivateRequest request = new ReactivateRequest("model", ACTOR, requestId);
    SubscriptionWorkflow workflow =
        client.newWorkflowStub(
            SubscriptionWorkflow.class,
            SubscriptionStartOptions.of(
                restart.subscription(),
                taskQueue,
                null,
                WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
                WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING));
    WithStartWorkflowOperation<SubscriptionState> start =
        new WithStartWorkflowOperation<>(workflow::run, restart);
    return WorkflowClient.startUpdateWithStart(
        workflow::reactivate,
        request,
        UpdateOptions.newBuilder(SubscriptionState.class)
            .setUpdateId(requestId)
            .setWaitForStage(WorkflowUpdateStage.ACCEPTED)
            .build(),
        start);
  }

  WorkflowUpdateHandle<SubscriptionState> changePaymentMethod(
      String sub, String requestId, PaymentMethod method) {
    PaymentMethodChange request = new PaymentMethodChange(method, ACTOR).withRequestId(requestId);
    return send(
        sub, requestId, (w, o) -> WorkflowClient.startUpdate(w::changePaymentMethod, request, o));
  }

  WorkflowUpdateHandle<SubscriptionState> payNow(String sub, String requestId) {
    PayNowRequest request = new PayNowRequest(ACTOR).withRequestId(requestId);
    return send(sub, requestId, (w, o) -> WorkflowClient.startUpdate(w::payNow, request, o));
  }

  WorkflowUpdateHandle<SubscriptionState> waive(String sub, String requestId, long cycle) {
    WaiveRequest request = new WaiveRequest(cycle, "model", ACTOR).withRequestId(requestId);
    return send(sub, requestId, (w, o) -> WorkflowClient.startUpdate(w::waivePeriod, request, o));
  }

  /**
   * @param amount null refunds what is left
   */
  WorkflowUpdateHandle<SubscriptionState> refund(
      String sub, String requestId, long cycle, Money amount) {
    RefundRequest request =
        new RefundRequest(cycle, amount, "model", ACTOR).withRequestId(requestId);
    return send(sub, requestId, (w, o) -> WorkflowClient.startUpdate(w::refundPeriod, request, o));
  }

  WorkflowUpdateHandle<SubscriptionState> changeBillingDay(String sub, String requestId, int day) {
    BillingDayChange request = new BillingDayChange(day, ACTOR).withRequestId(requestId);
    return send(
        sub, requestId, (w, o) -> WorkflowClient.startUpdate(w::changeBillingDay, request, o));
  }

  private interface Start {
    WorkflowUpdateHandle<SubscriptionState> apply(
        SubscriptionWorkflow workflow, UpdateOptions<SubscriptionState> options);
  }

  private WorkflowUpdateHandle<SubscriptionState> send(String sub, String requestId, Start start) {
    SubscriptionWorkflow workflow =
        client.newWorkflowStub(SubscriptionWorkflow.class, BillingIds.workflowId(sub));
    UpdateOptions<SubscriptionState> options =
        UpdateOptions.newBuilder(SubscriptionState.class)
            .setUpdateId(requestId)
            .setWaitForStage(WorkflowUpdateStage.ACCEPTED)
            .build();
    return start.apply(workflow, options);
  }
}
