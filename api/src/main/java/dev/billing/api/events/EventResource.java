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
import dev.billing.store.PageRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
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

  public EventResource(MerchantEventStore events) {
    this.events = Objects.requireNonNull(events, "events");
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
