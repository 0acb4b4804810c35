package dev.billing.api.ops;

import dev.billing.api.resources.PageParams;
import dev.billing.api.resources.PathIds;
import dev.billing.api.views.PageView;
import dev.billing.store.Page;
import dev.billing.store.events.PaymentEventStore;
import dev.billing.store.events.SubscriptionEvent;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The gateway events billing stored for one subscription's charges, oldest first: what an operator
 * reads beside the subscription's history to see which webhook (or replayed event) moved a period.
 * Events are kept {@code PaymentEventStore.RETENTION} (30 days). Under /v1/ops, which the API's
 * authentication reserves for operators.
 */
@Path("/v1/ops/payment-events")
@Produces(MediaType.APPLICATION_JSON)
public final class PaymentEventsResource {
  private final PaymentEventStore events;

  public PaymentEventsResource(PaymentEventStore events) {
    this.events = Objects.requireNonNull(events, "events");
  }

  /** A page of the subscription's events; none is an empty page, not a 404 (kept 30 days). */
  @GET
  public PageView<PaymentEventView> list(
      @QueryParam("subscriptionId") String subscriptionId,
      @QueryParam("pageToken") String pageToken,
      @QueryParam("limit") String limit) {
    String id = PathIds.require("subscriptionId", subscriptionId);
    Page<SubscriptionEvent> page = events.eventsOf(id, PageParams.of(pageToken, limit));
    // The index holds the keys only: each event is read whole (a page is at most a few dozen).
    List<PaymentEventView> items =
        page.items().stream()
            .map(e -> events.find(e.provider(), e.eventId()))
            .flatMap(Optional::stream)
            .map(PaymentEventView::of)
            .toList();
    return new PageView<>(items, page.nextPageToken());
  }
}
