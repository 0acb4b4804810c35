package dev.billing.api.resources;

import dev.billing.activities.views.SubscriptionView;
import dev.billing.api.errors.ApiProblem;
import dev.billing.api.errors.FieldError;
import dev.billing.api.ops.Reconciliations;
import dev.billing.api.subscriptions.ChangeStillRunning;
import dev.billing.api.subscriptions.SubscriptionWorkflows;
import dev.billing.domain.Subscription;
import dev.billing.store.BillingStore;
import dev.billing.workflows.AppliedRequest;
import dev.billing.workflows.SubscriptionState;
import dev.billing.workflows.UpdateRejections;
import dev.billing.workflows.UpdateRequest;
import dev.billing.workflows.UpdateRequests;
import dev.billing.workflows.reconciliation.SubscriptionRepairInput;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowUpdateException;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every change of a subscription shares: find it (404), refuse it when it is already ended
 * (409), send the update to its workflow, and turn the workflow's answer into HTTP: 200 with the
 * state it recorded, 409 for a refused transition, 402 for a declined charge, 404 for an unknown
 * period. (A change the workflow accepted but did not finish in time surfaces as {@link
 * dev.billing.api.subscriptions.ChangeStillRunning}, which {@link ChangeStillRunningMapper} answers
 * with 202.)
 */
final class WorkflowChanges {
  private static final Logger LOG = LoggerFactory.getLogger(WorkflowChanges.class);

  private final BillingStore store;
  private final Reconciliations repairs;

  WorkflowChanges(BillingStore store, Reconciliations repairs) {
    this.store = store;
    this.repairs = repairs;
  }

  /**
   * The stored subscription; 400 for a malformed id, 404 when the account has no such subscription.
   */
  Subscription find(String accountId, String subscriptionId) {
    PathIds.require("accountId", accountId);
    PathIds.require("subscriptionId", subscriptionId);
    return store
        .getSubscription(accountId, subscriptionId)
        .orElseThrow(
            () ->
                ApiProblem.notFound(
                    "Account " + accountId + " has no subscription " + subscriptionId + "."));
  }

  /**
   * Sends a change to the subscription's workflow and answers with the state it recorded.
   *
   * @param what the past participle the 409 uses: "Subscription s is CANCELLED; it cannot be
   *     {what}."
   * @param actor who asks ({@link Actors#of}), named in a repair this starts
   */
  SubscriptionView send(
      Subscription subscription, String what, String actor, Supplier<SubscriptionState> send) {
    return send(subscription, what, actor, null, send);
  }

  /**
   * Sends a change that carries a request id ({@code request}, as sent) and answers as {@link
   * #answer} says.
   */
  SubscriptionView send(
      Subscription subscription,
      String what,
      String actor,
      UpdateRequest<?> request,
      Supplier<SubscriptionState> send) {
    if (subscription.status().isTerminal()) {
      throw notAllowed(subscription, what);
    }
    try {
      return answer(subscription, request, send.get());
    } catch (WorkflowUpdateException e) {
      throw refusal(e, request);
    } catch (WorkflowNotFoundException e) {
      // The workflow ended after our read; the store says why.
      Subscription now = find(subscription.accountId(), subscription.subscriptionId());
      if (now.status().isTerminal()) {
        throw notAllowed(now, what);
      }
      throw workflowLost(now, actor);
    }
  }

  /**
   * Sends a change that an ended subscription still accepts (a refund): to the running workflow,
   * or, once it has ended, to the same workflow started again from the record, which applies it and
   * ends.
   */
  SubscriptionView sendEvenIfEnded(
      Subscription subscription,
      String actor,
      UpdateRequest<?> request,
      Supplier<SubscriptionState> running,
      Supplier<SubscriptionState> ended) {
    try {
      return answer(
          subscription, request, (subscription.status().isTerminal() ? ended : running).get());
    } catch (WorkflowUpdateException e) {
      throw refusal(e, request);
    } catch (WorkflowNotFoundException e) {
      Subscription now = find(subscription.accountId(), subscription.subscriptionId());
      if (now.status().isTerminal()) {
        return sendEvenIfEnded(now, actor, request, running, ended);
      }
      throw workflowLost(now, actor);
    }
  }

  /**
   * The workflow's answer as HTTP. Its answer names the request it answers: another request under
   * the same id (the workflow, or Temporal within a run, answered the first one) is a 409; one
   * whose money is still unknown (a charge or refund without the gateway's answer) is a 202 naming
   * what is pending; otherwise the subscription as recorded.
   */
  private static SubscriptionView answer(
      Subscription subscription, UpdateRequest<?> request, SubscriptionState state) {
    AppliedRequest answered = state.request();
    if (request != null && answered != null) {
      if (!answered.fingerprint().equals(UpdateRequests.fingerprint(request))) {
        throw keyReused();
      }
      if (answered.status() == AppliedRequest.Status.PENDING) {
        throw new ChangeStillRunning(
            subscription.subscriptionId(), answered.requestId(), answered.outcome());
      }
    }
    return SubscriptionView.of(state.subscription());
  }

  static ApiProblem keyReused() {
    return new ApiProblem(
        409,
        "idempotency-key-reused",
        "Idempotency key reused with a different request",
        "This Idempotency-Key was already used for a different request on this subscription; use a new "
            + "key for a new request.",
        List.of(new FieldError(IdempotencyKeys.HEADER, "already used for a different request")));
  }

  /**
   * Billing in the store with no running workflow: drift. The daily reconciliation only reaches a
   * subscription around its due date (an open-ended pause never), so a repair of this one starts
   * now (at most one per subscription per {@link Reconciliations#REPAIR_WINDOW}) and the caller
   * retries once it has restarted the workflow from the record.
   */
  private ApiProblem workflowLost(Subscription subscription, String actor) {
    Reconciliations.Repair repair;
    try {
      repair =
          repairs.repair(
              new SubscriptionRepairInput(
                  subscription.accountId(),
                  subscription.subscriptionId(),
                  true,
                  "api:" + actor + " workflow-not-found"));
    } catch (RuntimeException e) {
      LOG.warn(
          "no workflow for subscription {} and no repair started for it: {}",
          subscription.subscriptionId(),
          e.toString());
      return ApiProblem.unavailable(
          "The subscription's workflow is not running and its repair could "
              + "not be started; retry later.");
    }
    if (!repair.running()) {
      LOG.warn(
          "no workflow for subscription {} ({}) although repair {} ran: see its report",
          subscription.subscriptionId(),
          subscription.status(),
          repair.workflowId());
      return ApiProblem.unavailable(
              "The subscription's workflow is not running again after repair "
                  + repair.workflowId()
                  + " of this "
                  + Reconciliations.REPAIR_WINDOW.toMinutes()
                  + "-minute window (its report says what it found); the next repair may start in "
                  + repair.nextWindow().toSeconds()
                  + " s, or ask an operator.")
          .retryAfter(repair.nextWindow().toSeconds());
    }
    LOG.warn(
        "no workflow for subscription {} ({}); repair {} restarts it from the record",
        subscription.subscriptionId(),
        subscription.status(),
        repair.workflowId());
    return ApiProblem.unavailable(
        "The subscription's workflow is not running; repair "
            + repair.workflowId()
            + " is restarting it from the record. Retry in a few seconds.");
  }

  static ApiProblem notAllowed(Subscription subscription, String what) {
    return transitionNotAllowed(
        "Subscription "
            + subscription.subscriptionId()
            + " is "
            + subscription.status()
            + "; it cannot be "
            + what
            + ".");
  }

  private static ApiProblem transitionNotAllowed(String detail) {
    return ApiProblem.conflict(
        "transition-not-allowed",
        "The change is not allowed in the subscription's current state",
        detail);
  }

  private static RuntimeException refusal(WorkflowUpdateException e, UpdateRequest<?> request) {
    if (SubscriptionWorkflows.failureOfType(e, UpdateRejections.IDEMPOTENCY_KEY_REUSED) != null) {
      return keyReused();
    }
    String refusedFingerprint = SubscriptionWorkflows.failureFingerprint(e);
    if (request != null
        && refusedFingerprint != null
        && !refusedFingerprint.equals(UpdateRequests.fingerprint(request))) {
      // The refusal answers the first request under this id, not this one.
      return keyReused();
    }
    String refused = SubscriptionWorkflows.transitionNotAllowed(e);
    if (refused != null) {
      return transitionNotAllowed(sentence(refused));
    }
    String declined = SubscriptionWorkflows.failureOfType(e, UpdateRejections.PAYMENT_DECLINED);
    if (declined != null) {
      // The decline is recorded on the period; the money did not move.
      return new ApiProblem(
          402, "payment-declined", "The payment was declined", sentence(declined), List.of());
    }
    String noPeriod = SubscriptionWorkflows.failureOfType(e, UpdateRejections.NO_SUCH_PERIOD);
    if (noPeriod != null) {
      return ApiProblem.notFound(sentence(noPeriod));
    }
    return e;
  }

  private static String sentence(String message) {
    return message.endsWith(".") ? message : message + ".";
  }
}
