package dev.billing.api.resources;

import dev.billing.activities.views.SubscriptionView;
import dev.billing.api.errors.ApiProblem;
import dev.billing.api.errors.FieldError;
import dev.billing.api.ops.Reconciliations;
import dev.billing.api.subscriptions.Locales;
import dev.billing.api.subscriptions.SubscriptionCommands;
import dev.billing.domain.Subscription;
import dev.billing.store.BillingStore;
import dev.billing.workflows.CustomerChange;
import jakarta.validation.Valid;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;
import java.util.List;

/**
 * The customer's details on a subscription: email, locale and time zone, each validated as at
 * creation. An update of the subscription's workflow like every lifecycle change ({@link
 * SubscriptionLifecycleResource}): the same request ids, answers and refusals. The workflow refuses
 * a request that changes nothing (409), as it refuses a billing day the subscription already has.
 */
// The same root path as SubscriptionResource, which Jersey merges with this one (see
// SubscriptionLifecycleResource).
@Path("/v1/accounts/{accountId}/subscriptions")
@Produces(MediaType.APPLICATION_JSON)
public final class CustomerChangeResource {

  private final WorkflowChanges changes;
  private final SubscriptionCommands workflows;

  /**
   * @param repairs started for a subscription whose workflow a change finds gone
   */
  public CustomerChangeResource(
      BillingStore store, SubscriptionCommands workflows, Reconciliations repairs) {
    this.changes = new WorkflowChanges(store, repairs);
    this.workflows = workflows;
  }

  /**
   * A new email (a recorded bounce is cleared and later messages go there), locale (later messages
   * are written in it) or time zone (due dates become those days there; the cycle and what is paid
   * stay).
   */
  @POST
  @Path("/{subscriptionId}/customer")
  @Consumes(MediaType.APPLICATION_JSON)
  public SubscriptionView changeCustomer(
      @PathParam("accountId") String accountId,
      @PathParam("subscriptionId") String subscriptionId,
      @Valid ChangeCustomerRequest body,
      @HeaderParam(IdempotencyKeys.HEADER) String idempotencyKey,
      @Context SecurityContext security) {
    if (body == null
        || (body.email() == null && body.locale() == null && body.timeZone() == null)) {
      String message = "give at least one of email, locale and timeZone";
      throw new ApiProblem(
          400,
          "invalid-request",
          "The request is invalid",
          message,
          List.of(
              new FieldError("email", message),
              new FieldError("locale", message),
              new FieldError("timeZone", message)));
    }
    // The constraints leave a blank address to a "required" check, which an optional field lacks.
    if (body.email() != null && body.email().isBlank()) {
      throw ApiProblem.invalid("email", "email must not be blank");
    }
    Subscription subscription = changes.find(accountId, subscriptionId);
    CustomerChange change =
        new CustomerChange(
            body.email() == null ? null : body.email().strip(),
            body.locale() == null ? null : Locales.canonical(body.locale()),
            body.timeZone() == null ? null : body.timeZone().strip(),
            Actors.of(security),
            IdempotencyKeys.requestId(idempotencyKey));
    return changes.send(
        subscription,
        "given new customer details",
        Actors.of(security),
        change,
        () -> workflows.changeCustomer(subscriptionId, change));
  }
}
