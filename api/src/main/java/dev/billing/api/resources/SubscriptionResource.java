package dev.billing.api.resources;

import dev.billing.activities.views.PeriodView;
import dev.billing.activities.views.SubscriptionView;
import dev.billing.api.constraints.IdempotencyKey;
import dev.billing.api.errors.ApiProblem;
import dev.billing.api.ops.Reconciliations;
import dev.billing.api.subscriptions.CreateSubscriptionRequest;
import dev.billing.api.subscriptions.CreateSubscriptionValidator;
import dev.billing.api.subscriptions.NewSubscription;
import dev.billing.api.subscriptions.NotRecordedYet;
import dev.billing.api.subscriptions.PaymentMethods;
import dev.billing.api.subscriptions.SubscriptionCommands;
import dev.billing.api.subscriptions.SubscriptionIds;
import dev.billing.api.views.HistoryEntryView;
import dev.billing.api.views.PageView;
import dev.billing.api.views.UpcomingChargeView;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.Subscription;
import dev.billing.domain.Upcoming;
import dev.billing.store.BillingStore;
import dev.billing.workflows.PaymentMethodChange;
import dev.billing.workflows.SubscriptionState;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import jakarta.validation.Valid;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.time.Duration;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;

/**
 * Subscriptions of an account. Creation and changes go through the subscription's workflow (its
 * only writer; the lifecycle changes are in {@link SubscriptionLifecycleResource}); reads come from
 * the store.
 */
@Path("/v1/accounts/{accountId}/subscriptions")
@Produces(MediaType.APPLICATION_JSON)
public final class SubscriptionResource {

  private final BillingStore store;
  private final SubscriptionCommands workflows;
  private final InstantSource clock;
  private final CreateSubscriptionValidator validator;
  private final WorkflowChanges changes;

  /**
   * @param repairs started for a subscription whose workflow a change finds gone
   * @param dueWindow given to new subscriptions (api.yml dueWindow)
   */
  public SubscriptionResource(
      BillingStore store,
      SubscriptionCommands workflows,
      Reconciliations repairs,
      InstantSource clock,
      Duration dueWindow) {
    this.store = store;
    this.workflows = workflows;
    this.clock = clock;
    this.changes = new WorkflowChanges(store, repairs);
    this.validator = new CreateSubscriptionValidator(dueWindow);
  }

  /**
   * 201 with Location when this request created the subscription. With an Idempotency-Key already
   * used for this account: 200 and the stored subscription when the request is the same, 409 when
   * it differs. (Two identical requests racing before either is stored both get 201 and the same
   * subscription: the workflow id makes them one.)
   */
  @POST
  @Consumes(MediaType.APPLICATION_JSON)
  public Response create(
      @PathParam("accountId") String accountId,
      @HeaderParam(IdempotencyKeys.HEADER) @IdempotencyKey String idempotencyHeader,
      @Valid CreateSubscriptionRequest body,
      @Context UriInfo uri,
      @Context SecurityContext security) {
    PathIds.require("accountId", accountId);
    String key = IdempotencyKeys.validate(idempotencyHeader);
    CreateSubscriptionValidator.TodayIn today = zone -> LocalDate.ofInstant(clock.instant(), zone);
    NewSubscription request = validator.validate(body, today);

    String subscriptionId =
        key == null ? SubscriptionIds.random() : SubscriptionIds.fromIdempotencyKey(accountId, key);
    if (key != null) {
      var stored = store.getSubscription(accountId, subscriptionId);
      if (stored.isPresent()) {
        return replay(stored.get(), request);
      }
    }
    validator.requireStartNotInPast(request, today);

    Subscription subscription =
        request.toSubscription(
            accountId, subscriptionId, clock.instant().truncatedTo(ChronoUnit.MILLIS));
    URI location =
        uri.getBaseUriBuilder()
            .path(SubscriptionResource.class)
            .path(SubscriptionResource.class, "get")
            .build(accountId, subscriptionId);
    Subscription created;
    try {
      SubscriptionState state = workflows.create(subscription, Actors.of(security));
      created = state.subscription();
    } catch (WorkflowExecutionAlreadyStarted e) {
      // The workflow of this key already ran and closed between our read and the start.
      return replay(store.getSubscription(accountId, subscriptionId).orElseThrow(() -> e), request);
    } catch (NotRecordedYet e) {
      // Started, not yet recorded: it will be. 202 + Location, never an error that invites a retry
      // without the Idempotency-Key (which would create a second subscription).
      return Response.accepted(
              new AcceptedView(
                  subscriptionId,
                  "Accepted; the subscription is being recorded. GET the Location to see it."))
          .location(location)
          .build();
    }
    if (!request.requestHash().equals(created.requestHash())) {
      throw keyReused();
    }
    return Response.created(location).entity(SubscriptionView.of(created)).build();
  }

  /** What a 202 says: which subscription, and where it will be readable. */
  public record AcceptedView(String subscriptionId, String detail) {}

  private static Response replay(Subscription stored, NewSubscription request) {
    if (!request.requestHash().equals(stored.requestHash())) {
      throw keyReused();
    }
    return Response.ok(SubscriptionView.of(stored)).build();
  }

  private static ApiProblem keyReused() {
    return ApiProblem.conflict(
        "idempotency-key-reused",
        "Idempotency key reused with a different request",
        "This Idempotency-Key was already used for a different request on this account; "
            + "use a new key for a new subscription.");
  }

  @GET
  public PageView<SubscriptionView> list(
      @PathParam("accountId") String accountId,
      @QueryParam("pageToken") String pageToken,
      @QueryParam("limit") String limit) {
    PathIds.require("accountId", accountId);
    var page = PageParams.of(pageToken, limit);
    return PageView.of(store.getSubscriptionsByAccount(accountId, page), SubscriptionView::of);
  }

  @GET
  @Path("/{subscriptionId}")
  public SubscriptionView get(
      @PathParam("accountId") String accountId,
      @PathParam("subscriptionId") String subscriptionId) {
    return SubscriptionView.of(find(accountId, subscriptionId));
  }

  /**
   * The next regular charge: its date, amount and lines, by the rules the workflow charges by. 404
   * (saying why) when none is coming: ended, ending before it, or paused without an end date.
   */
  @GET
  @Path("/{subscriptionId}/upcoming")
  public UpcomingChargeView upcoming(
      @PathParam("accountId") String accountId,
      @PathParam("subscriptionId") String subscriptionId) {
    Upcoming next = Upcoming.of(find(accountId, subscriptionId));
    if (next instanceof Upcoming.Charge charge) {
      return UpcomingChargeView.of(subscriptionId, charge);
    }
    throw ApiProblem.notFound("No upcoming charge: " + ((Upcoming.None) next).reason());
  }

  @GET
  @Path("/{subscriptionId}/history")
  public PageView<HistoryEntryView> history(
      @PathParam("accountId") String accountId,
      @PathParam("subscriptionId") String subscriptionId,
      @QueryParam("pageToken") String pageToken,
      @QueryParam("limit") String limit) {
    find(accountId, subscriptionId);
    var page = PageParams.of(pageToken, limit);
    return PageView.of(store.getHistory(subscriptionId, page), HistoryEntryView::of);
  }

  @GET
  @Path("/{subscriptionId}/periods")
  public PageView<PeriodView> periods(
      @PathParam("accountId") String accountId,
      @PathParam("subscriptionId") String subscriptionId,
      @QueryParam("pageToken") String pageToken,
      @QueryParam("limit") String limit) {
    find(accountId, subscriptionId);
    var page = PageParams.of(pageToken, limit);
    return PageView.of(store.getPeriods(accountId, subscriptionId, page), PeriodView::of);
  }

  /**
   * 200 with the subscription using the new payment method (token and mask only). During dunning
   * the unpaid period is retried at once. 409 when the subscription is cancelled.
   */
  @PUT
  @Path("/{subscriptionId}/payment-method")
  @Consumes(MediaType.APPLICATION_JSON)
  public SubscriptionView changePaymentMethod(
      @PathParam("accountId") String accountId,
      @PathParam("subscriptionId") String subscriptionId,
      @Valid ChangePaymentMethodRequest body,
      @HeaderParam(IdempotencyKeys.HEADER) String idempotencyKey,
      @Context SecurityContext security) {
    // An empty body is the one case the record's constraints cannot see.
    if (body == null) {
      throw ApiProblem.invalid("paymentMethod", "paymentMethod is required");
    }
    String token = body.paymentMethod().strip();
    PaymentMethod method = new PaymentMethod(token, PaymentMethods.maskOf(token));
    PaymentMethodChange change =
        new PaymentMethodChange(
            method, Actors.of(security), IdempotencyKeys.requestId(idempotencyKey));
    return changes.send(
        find(accountId, subscriptionId),
        "changed",
        Actors.of(security),
        () -> workflows.changePaymentMethod(subscriptionId, change));
  }

  private Subscription find(String accountId, String subscriptionId) {
    return changes.find(accountId, subscriptionId);
  }
}
