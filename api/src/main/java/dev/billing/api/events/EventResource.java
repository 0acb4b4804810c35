package dev.billing.api.events;

import dev.billing.activities.views.EventView;
import dev.billing.api.auth.AccountConfined;
import dev.billing.api.auth.BillingPrincipal;
import dev.billing.api.errors.ApiProblem;
import dev.billing.api.errors.FieldError;
import dev.billing.api.resources.PageParams;
import dev.billing.api.resources.PathIds;
import dev.billing.api.views.PageView;
import dev.billing.domain.MerchantEventType;
import dev.billing.store.MerchantEventStore;
import dev.billing.store.OutboxEvent;
import dev.billing.store.PageRequest;
import dev.billing.store.endpoints.WebhookEndpoint;
import dev.billing.store.endpoints.WebhookEndpointStore;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * {@code /v1/events}: the merchant events the worker writes with every change (ADR 0012), newest
 * first. Operators read every account's; an account credential only its own account's, as if the
 * others did not exist (404), the same answer the /v1/accounts paths give.
 */
@Path("/v1/events")
@Produces(MediaType.APPLICATION_JSON)
public final class EventResource {
  private static final String TYPES =
      Arrays.stream(MerchantEventType.values())
          .map(MerchantEventType::wireName)
          .collect(Collectors.joining(", "));

  private final MerchantEventStore events;
  private final WebhookEndpointStore endpoints;
  private final Redeliveries redeliveries;

  public EventResource(
      MerchantEventStore events, WebhookEndpointStore endpoints, Redeliveries redeliveries) {
    this.events = Objects.requireNonNull(events, "events");
    this.endpoints = Objects.requireNonNull(endpoints, "endpoints");
    this.redeliveries = Objects.requireNonNull(redeliveries, "redeliveries");
  }

  /** The answer to a redelivery: the endpoints the event goes to again (those subscribed now). */
  public record RedeliveryView(String eventId, List<String> endpointIds, String detail) {}

  /**
   * Sends one event again to every enabled endpoint subscribed to its type now, those it reached
   * included (operators only); a disabled endpoint gets nothing until it is enabled. Accepted, not
   * done: the event's delivery workflow sends it, after what is queued before it for each endpoint,
   * and its attempts are listed under the endpoint.
   */
  @POST
  @Path("/{eventId}/redeliver")
  public Response redeliver(
      @PathParam("eventId") String eventId, @Context SecurityContext security) {
    OutboxEvent event =
        events
            .find(eventId)
            .orElseThrow(() -> ApiProblem.notFound("There is no event " + eventId + "."));
    List<String> to =
        endpoints.all().stream()
            .filter(endpoint -> endpoint.enabled() && endpoint.wants(event.type().wireName()))
            .map(WebhookEndpoint::id)
            .toList();
    if (!to.isEmpty()) {
      redeliveries.redeliver(event.subscriptionId(), event.id(), principal(security).getName());
    }
    return Response.accepted(
            new RedeliveryView(
                event.id(),
                to,
                to.isEmpty()
                    ? "No enabled endpoint is subscribed to "
                        + event.type().wireName()
                        + ": nothing is sent."
                    : "Sent again to each endpoint, queued by its id after the delivery in flight; see"
                        + " /v1/webhook-endpoints/{id}/deliveries."))
        .build();
  }

  /**
   * Filters combine; an operator gives at least one of them (the store has no index of every
   * event), an account credential reads its own account without any.
   */
  @GET
  @AccountConfined
  public PageView<EventView> list(
      @QueryParam("type") String type,
      @QueryParam("accountId") String accountId,
      @QueryParam("subscriptionId") String subscriptionId,
      @QueryParam("pageToken") String pageToken,
      @QueryParam("limit") String limit,
      @Context SecurityContext security) {
    List<FieldError> errors = new ArrayList<>();
    MerchantEventType eventType = type == null ? null : MerchantEventType.fromWireName(type);
    if (type != null && eventType == null) {
      errors.add(new FieldError("type", "type must be one of " + TYPES));
    }
    if (accountId != null && !PathIds.isValid(accountId)) {
      errors.add(new FieldError("accountId", "accountId must match " + PathIds.PATTERN));
    }
    if (subscriptionId != null && !PathIds.isValid(subscriptionId)) {
      errors.add(new FieldError("subscriptionId", "subscriptionId must match " + PathIds.PATTERN));
    }
    if (!errors.isEmpty()) {
      throw ApiProblem.invalid(errors);
    }
    PageRequest page = PageParams.of(pageToken, limit);
    BillingPrincipal principal = principal(security);
    String account = accountId;
    if (!principal.isOperator()) {
      if (account != null && !principal.mayReach(account)) {
        throw ApiProblem.notFound("There is no account " + account + ".");
      }
      account = principal.accountId();
    } else if (account == null && subscriptionId == null && eventType == null) {
      String why = "give type, accountId or subscriptionId: events are listed by one of them";
      throw ApiProblem.invalid(
          List.of(
              new FieldError("type", why),
              new FieldError("accountId", why),
              new FieldError("subscriptionId", why)));
    }
    return PageView.of(
        events.list(new MerchantEventStore.Query(account, subscriptionId, eventType), page),
        EventView::of);
  }

  @GET
  @Path("/{eventId}")
  @AccountConfined
  public EventView get(@PathParam("eventId") String eventId, @Context SecurityContext security) {
    BillingPrincipal principal = principal(security);
    return events
        .find(eventId)
        .filter(event -> principal.mayReach(event.accountId()))
        .map(EventView::of)
        .orElseThrow(() -> ApiProblem.notFound("There is no event " + eventId + "."));
  }

  private static BillingPrincipal principal(SecurityContext security) {
    // AccessFilter lets no request without a principal reach this resource.
    return (BillingPrincipal) security.getUserPrincipal();
  }
}
