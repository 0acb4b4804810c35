package dev.billing.api.resources;

import dev.billing.activities.views.SubscriptionView;
import dev.billing.api.auth.OperatorOnly;
import dev.billing.api.errors.ApiProblem;
import dev.billing.api.ops.Reconciliations;
import dev.billing.api.subscriptions.SubscriptionCommands;
import dev.billing.domain.Money;
import dev.billing.domain.Subscription;
import dev.billing.domain.Term;
import dev.billing.store.BillingStore;
import dev.billing.workflows.BillingDayChange;
import dev.billing.workflows.CancelRequest;
import dev.billing.workflows.PauseRequest;
import dev.billing.workflows.PayNowRequest;
import dev.billing.workflows.PlanChangeRequest;
import dev.billing.workflows.RefundRequest;
import dev.billing.workflows.ResumeRequest;
import dev.billing.workflows.WaiveRequest;
import dev.billing.workflows.subscription.SubscriptionRestart;
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
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;

/**
 * The lifecycle of one subscription: cancel, pause, resume, plan change, manual payment, waiver and
 * refund of a period, billing-day move. Each is an update of the subscription's workflow, which
 * validates it against the state it holds and records it before answering: 200 with the
 * subscription as recorded, 409 when the transition is not allowed now, 404 for an unknown
 * subscription or period, 402 when a charge made by the change was declined, 202 when the workflow
 * accepted the change but did not finish it in time or its money's outcome is not known yet. This
 * class checks only what the request itself can get wrong (400, nothing sent).
 *
 * <p>Every change has a request id: its {@code Idempotency-Key} header, or one generated here. It
 * is the Temporal update id and the workflow remembers it, so a retry with the same key is answered
 * as the first request was and moves no money twice (the gateway keys of an upgrade's charge and of
 * a refund derive from it); the same key with another request is a 409 {@code
 * idempotency-key-reused}.
 */
// The same root path as SubscriptionResource: Jersey merges the two. A deeper root path would win
// every match under it and hide SubscriptionResource's routes there (Jersey does not backtrack).
@Path("/v1/accounts/{accountId}/subscriptions")
@Produces(MediaType.APPLICATION_JSON)
public final class SubscriptionLifecycleResource {

  /** The longest pause: three years of monthly cycles. */
  static final int MAX_PAUSE_CYCLES = 36;

  private final BillingStore store;
  private final WorkflowChanges changes;
  private final SubscriptionCommands workflows;
  private final InstantSource clock;

  /**
   * @param repairs started for a subscription whose workflow a change finds gone
   */
  public SubscriptionLifecycleResource(
      BillingStore store,
      SubscriptionCommands workflows,
      Reconciliations repairs,
      InstantSource clock) {
    this.store = store;
    this.changes = new WorkflowChanges(store, repairs);
    this.workflows = workflows;
    this.clock = clock;
  }

  /**
   * Ends the subscription now, or at its paid-through date with {@code "atPeriodEnd":true}. With an
   * immediate cancellation {@code "refundUnused":true} refunds the unused days of the paid period.
   */
  @POST
  @Path("/{subscriptionId}/cancel")
  @Consumes(MediaType.APPLICATION_JSON)
  public SubscriptionView cancel(
      @PathParam("accountId") String accountId,
      @PathParam("subscriptionId") String subscriptionId,
      CancelSubscriptionRequest body,
      @HeaderParam(IdempotencyKeys.HEADER) String idempotencyKey,
      @Context SecurityContext security) {
    String reason = ChangeFields.reason(body == null ? null : body.reason());
    boolean atPeriodEnd = body != null && Boolean.TRUE.equals(body.atPeriodEnd());
    boolean refundUnused = body != null && Boolean.TRUE.equals(body.refundUnused());
    if (atPeriodEnd && refundUnused) {
      throw ApiProblem.invalid(
          "refundUnused",
          "refundUnused applies only to an immediate "
              + "cancellation: at period end nothing paid is left unused");
    }
    Subscription subscription = changes.find(accountId, subscriptionId);
    CancelRequest request =
        new CancelRequest(
            reason,
            Actors.of(security),
            atPeriodEnd,
            refundUnused,
            IdempotencyKeys.requestId(idempotencyKey));
    return changes.send(
        subscription,
        "cancelled again",
        Actors.of(security),
        request,
        () -> workflows.cancel(subscriptionId, request));
  }

  /**
   * Pauses for {@code cycles} periods, until a date ({@code until}: the first due date on or after
   * it is charged), or, with neither, until a resume.
   */
  @POST
  @Path("/{subscriptionId}/pause")
  @Consumes(MediaType.APPLICATION_JSON)
  public SubscriptionView pause(
      @PathParam("accountId") String accountId,
      @PathParam("subscriptionId") String subscriptionId,
      PauseSubscriptionRequest body,
      @HeaderParam(IdempotencyKeys.HEADER) String idempotencyKey,
      @Context SecurityContext security) {
    Integer cycles = body == null ? null : body.cycles();
    String untilText = body == null || body.until() == null ? null : body.until().strip();
    String reason = ChangeFields.reason(body == null ? null : body.reason());
    if (cycles != null && untilText != null) {
      throw ApiProblem.invalid("until", "give cycles or until, not both");
    }
    if (cycles != null && (cycles < 1 || cycles > MAX_PAUSE_CYCLES)) {
      throw ApiProblem.invalid("cycles", "cycles must be between 1 and " + MAX_PAUSE_CYCLES);
    }
    LocalDate until = null;
    if (untilText != null) {
      try {
        until = LocalDate.parse(untilText);
      } catch (DateTimeParseException e) {
        throw ApiProblem.invalid("until", "until must be a date such as \"2026-01-31\"");
      }
    }
    Subscription subscription = changes.find(accountId, subscriptionId);
    if (until != null) {
      LocalDate today = LocalDate.ofInstant(clock.instant(), subscription.schedule().zone());
      if (!until.isAfter(today)) {
        throw ApiProblem.invalid(
            "until",
            "until must be after today ("
                + today
                + " in "
                + subscription.schedule().timeZone()
                + ")");
      }
      if (until.isAfter(today.plusMonths(MAX_PAUSE_CYCLES))) {
        throw ApiProblem.invalid(
            "until",
            "until must be at most " + MAX_PAUSE_CYCLES + " months after today (" + today + ")");
      }
    }
    PauseRequest request =
        new PauseRequest(
            cycles, until, reason, Actors.of(security), IdempotencyKeys.requestId(idempotencyKey));
    return changes.send(
        subscription,
        "paused",
        Actors.of(security),
        request,
        () -> workflows.pause(subscriptionId, request));
  }

  /** Ends a pause now: billing restarts on the first due date on or after today. */
  @POST
  @Path("/{subscriptionId}/resume")
  public SubscriptionView resume(
      @PathParam("accountId") String accountId,
      @PathParam("subscriptionId") String subscriptionId,
      @HeaderParam(IdempotencyKeys.HEADER) String idempotencyKey,
      @Context SecurityContext security) {
    Subscription subscription = changes.find(accountId, subscriptionId);
    ResumeRequest request =
        new ResumeRequest(Actors.of(security), IdempotencyKeys.requestId(idempotencyKey));
    return changes.send(
        subscription,
        "resumed",
        Actors.of(security),
        request,
        () -> workflows.resume(subscriptionId, request));
  }

  /**
   * Moves the subscription to another plan (sku and price, and optionally term), now (prorated) or
   * from the next period. The currency must be the subscription's: a 400 naming {@code currency}
   * otherwise, because no state of the subscription would make that request valid (a 409 says "not
   * now").
   */
  @POST
  @Path("/{subscriptionId}/plan")
  @Consumes(MediaType.APPLICATION_JSON)
  public SubscriptionView changePlan(
      @PathParam("accountId") String accountId,
      @PathParam("subscriptionId") String subscriptionId,
      @Valid ChangePlanRequest body,
      @HeaderParam(IdempotencyKeys.HEADER) String idempotencyKey,
      @Context SecurityContext security) {
    if (body == null) {
      throw ApiProblem.invalid(
          null, "a JSON object with sku, amount, currency and effective is required");
    }
    // The fields passed the record's constraints; this reads them.
    String sku = body.sku().strip();
    Money price = Money.parse(body.amount().strip(), body.currency().strip());
    PlanChangeRequest.Effective effective =
        body.effective().strip().equals("now")
            ? PlanChangeRequest.Effective.NOW
            : PlanChangeRequest.Effective.PERIOD_END;
    Subscription subscription = changes.find(accountId, subscriptionId);
    if (!price.currency().equals(subscription.price().currency())) {
      throw ApiProblem.invalid(
          "currency",
          "currency must be the subscription's currency (" + subscription.price().currency() + ")");
    }
    Term term = body.term() == null ? null : Term.valueOf(body.term());
    PlanChangeRequest request =
        new PlanChangeRequest(
            sku,
            price,
            effective,
            term,
            Actors.of(security),
            IdempotencyKeys.requestId(idempotencyKey));
    return changes.send(
        subscription,
        "moved to another plan",
        Actors.of(security),
        request,
        () -> workflows.changePlan(subscriptionId, request));
  }

  /** Manual repayment: charges the oldest unpaid period now; 402 with the reason when declined. */
  @POST
  @Path("/{subscriptionId}/pay")
  public SubscriptionView pay(
      @PathParam("accountId") String accountId,
      @PathParam("subscriptionId") String subscriptionId,
      @HeaderParam(IdempotencyKeys.HEADER) String idempotencyKey,
      @Context SecurityContext security) {
    Subscription subscription = changes.find(accountId, subscriptionId);
    PayNowRequest request =
        new PayNowRequest(Actors.of(security), IdempotencyKeys.requestId(idempotencyKey));
    return changes.send(
        subscription,
        "charged",
        Actors.of(security),
        request,
        () -> workflows.payNow(subscriptionId, request));
  }

  /** Forgives an unpaid (ERROR) period without payment: WAIVED. */
  // Forgiving a debt or giving money back is the operator's decision, never the customer's own
  // key's.
  @POST
  @OperatorOnly
  @Path("/{subscriptionId}/periods/{periodId}/waive")
  @Consumes(MediaType.APPLICATION_JSON)
  public SubscriptionView waive(
      @PathParam("accountId") String accountId,
      @PathParam("subscriptionId") String subscriptionId,
      @PathParam("periodId") String periodId,
      WaivePeriodRequest body,
      @HeaderParam(IdempotencyKeys.HEADER) String idempotencyKey,
      @Context SecurityContext security) {
    long cycle = ChangeFields.periodId(periodId);
    String reason = ChangeFields.reason(body == null ? null : body.reason());
    Subscription subscription = existingPeriod(changes.find(accountId, subscriptionId), cycle);
    WaiveRequest request =
        new WaiveRequest(
            cycle, reason, Actors.of(security), IdempotencyKeys.requestId(idempotencyKey));
    return changes.send(
        subscription,
        "changed",
        Actors.of(security),
        request,
        () -> workflows.waivePeriod(subscriptionId, request));
  }

  /**
   * Refunds a collected period through the gateway: {@code amount} (in the subscription's currency)
   * or, when absent, all that is still refundable. The period becomes REFUNDED with its refunded
   * total; refunds beyond what was collected are refused (409).
   */
  @POST
  @OperatorOnly
  @Path("/{subscriptionId}/periods/{periodId}/refund")
  @Consumes(MediaType.APPLICATION_JSON)
  public SubscriptionView refund(
      @PathParam("accountId") String accountId,
      @PathParam("subscriptionId") String subscriptionId,
      @PathParam("periodId") String periodId,
      RefundPeriodRequest body,
      @HeaderParam(IdempotencyKeys.HEADER) String idempotencyKey,
      @Context SecurityContext security) {
    long cycle = ChangeFields.periodId(periodId);
    String reason = ChangeFields.reason(body == null ? null : body.reason());
    String amountText = body == null || body.amount() == null ? null : body.amount().strip();
    Subscription subscription = existingPeriod(changes.find(accountId, subscriptionId), cycle);
    Money amount =
        amountText == null
            ? null
            : ChangeFields.positiveAmount("amount", amountText, subscription.price().currency());
    RefundRequest request =
        new RefundRequest(
            cycle, amount, reason, Actors.of(security), IdempotencyKeys.requestId(idempotencyKey));
    // A cancelled subscription's collected periods can still be refunded.
    return changes.sendEvenIfEnded(
        subscription,
        Actors.of(security),
        request,
        () -> workflows.refundPeriod(subscriptionId, request),
        () ->
            workflows.refundAfterEnd(
                SubscriptionRestart.ended(
                    subscription, store.allPeriods(accountId, subscriptionId), clock.instant()),
                request));
  }

  /** Moves the billing anchor to another day of the month (clamped to shorter months' last day). */
  @POST
  @Path("/{subscriptionId}/billing-day")
  @Consumes(MediaType.APPLICATION_JSON)
  public SubscriptionView changeBillingDay(
      @PathParam("accountId") String accountId,
      @PathParam("subscriptionId") String subscriptionId,
      @Valid ChangeBillingDayRequest body,
      @HeaderParam(IdempotencyKeys.HEADER) String idempotencyKey,
      @Context SecurityContext security) {
    // An empty body is the one case the record's constraints cannot see.
    if (body == null) {
      throw ApiProblem.invalid("billingDay", "billingDay is required");
    }
    int day = body.billingDay();
    Subscription subscription = changes.find(accountId, subscriptionId);
    BillingDayChange request =
        new BillingDayChange(day, Actors.of(security), IdempotencyKeys.requestId(idempotencyKey));
    return changes.send(
        subscription,
        "moved to another billing day",
        Actors.of(security),
        request,
        () -> workflows.changeBillingDay(subscriptionId, request));
  }

  /**
   * 404 for a period that cannot exist yet: the subscription's cycle is the next one to be billed,
   * so no later period has a record. Earlier ones are the workflow's to judge (it answers 404 for
   * one it does not know).
   */
  private static Subscription existingPeriod(Subscription subscription, long cycle) {
    if (cycle > subscription.cycle()) {
      throw ApiProblem.notFound(
          "Subscription "
              + subscription.subscriptionId()
              + " has no period "
              + cycle
              + " (its next period to bill is "
              + subscription.cycle()
              + ").");
    }
    return subscription;
  }
}
