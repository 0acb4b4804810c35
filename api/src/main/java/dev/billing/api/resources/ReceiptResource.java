package dev.billing.api.resources;

import dev.billing.activities.views.ReceiptView;
import dev.billing.api.views.PageView;
import dev.billing.store.BillingStore;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.InstantSource;

/** Receipts of an account, newest first; expired ones (by the API's clock) are left out. */
@Path("/v1/accounts/{accountId}/receipts")
@Produces(MediaType.APPLICATION_JSON)
public final class ReceiptResource {

  private final BillingStore store;
  private final InstantSource clock;

  public ReceiptResource(BillingStore store, InstantSource clock) {
    this.store = store;
    this.clock = clock;
  }

  @GET
  public PageView<ReceiptView> list(
      @PathParam("accountId") String accountId,
      @QueryParam("pageToken") String pageToken,
      @QueryParam("limit") String limit) {
    PathIds.require("accountId", accountId);
    var page = PageParams.of(pageToken, limit);
    return PageView.of(
        store.getReceiptsByAccount(accountId, clock.instant(), page), ReceiptView::of);
  }
}
