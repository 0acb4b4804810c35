package dev.billing.api.resources;

import dev.billing.activities.views.SubscriptionView;
import dev.billing.api.errors.ApiProblem;
import dev.billing.api.ops.Reconciliations;
import dev.billing.api.subscriptions.SubscriptionCommands;
import dev.billing.domain.Period;
import dev.billing.domain.Reactivation;
import dev.billing.domain.Subscription;
import dev.billing.store.BillingStore;
import dev.billing.workflows.ReactivateRequest;
import dev.billing.workflows.subscription.SubscriptionRestart;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;

/**
 * Reactivation: a cancelled subscription bills again, within {@code window} of its cancellation,
 * from the first due date on or after today; a cancellation scheduled at period end is taken back.
 * The rules an ended subscription's record decides ({@link Reactivation#refusal}) are judged here,
 * before any run is started, each a 409 whose type names why; what a running workflow decides comes
 * back as for every change ({@link WorkflowChanges}). An ended subscription's workflow is started
 * again from the record with the reactivation as its update (as for a refund after the end), and
 * that run bills on.
 */
// The same root path as SubscriptionResource, which Jersey merges with this one (see
// SubscriptionLifecycleResource).
@Path("/v1/accounts/{accountId}/subscriptions")
@Produces(MediaType.APPLICATION_JSON)
public final class ReactivationResource {

  private final BillingStore store;
  private final WorkflowChanges changes;
  private final SubscriptionCommands workflows;
  private final InstantSource clock;
  private final Duration window;

  /**
   * @param repairs started for a subscription whose workflow a change finds gone
   * @param window how long after its cancellation a subscription can be reactivated
   */
  public ReactivationResource(
      BillingStore store,
      SubscriptionCommands workflows,
      Reconciliations repairs,
      InstantSource clock,
      Duration window) {
    this.store = store;
    this.changes = new WorkflowChanges(store, repairs);
    this.workflows = workflows;
    this.clock = clock;
    this.window = window;
  }

  @POST
  @Path("/{subscriptionId}/reactivate")
  @Consumes(MediaType.APPLICATION_JSON)
  public SubscriptionView reactivate(
      @PathParam("accountId") String accountId,
      @PathParam("subscriptionId") String subscriptionId,
      ReactivateSubscriptionRequest body,
      @HeaderParam(IdempotencyKeys.HEADER) String idempotencyKey,
      @Context SecurityContext security) {
    String reason = ChangeFields.reason(body == null ? null : body.reason());
    Subscription subscription = changes.find(accountId, subscriptionId);
    String actor = Actors.of(security);
    ReactivateRequest request =
        new ReactivateRequest(reason, actor, IdempotencyKeys.requestId(idempotencyKey));
    if (!subscription.status().isTerminal()) {
      // Its running workflow judges it: a cancellation at period end is taken back, a repeat of
      // an applied reactivation gets its first answer, anything else is refused (409).
      return changes.send(
          subscription,
          "reactivated",
          actor,
          request,
          () -> workflows.reactivate(subscriptionId, request));
    }
    List<Period> periods = store.allPeriods(accountId, subscriptionId);
    Reactivation.refusal(subscription, periods, clock.instant(), window)
        .ifPresent(
            refused -> {
              throw ApiProblem.conflict(
                  refused.reason().type(),
                  "The subscription cannot be reactivated",
                  refused.detail());
            });
    return changes.sendEvenIfEnded(
        subscription,
        actor,
        request,
        () -> workflows.reactivate(subscriptionId, request),
        () ->
            workflows.reactivateAfterEnd(
                SubscriptionRestart.ended(subscription, periods, clock.instant()), request));
  }
}
