package dev.billing.api.resources;

import dev.billing.api.errors.ApiProblem;
import dev.billing.api.views.DuePaymentView;
import dev.billing.api.views.DueReminderView;
import dev.billing.api.views.PageView;
import dev.billing.store.BillingStore;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;

/** Operational views over the date indexes: what is due on a given day, across accounts. */
@Path("/v1/billing")
@Produces(MediaType.APPLICATION_JSON)
public final class BillingDueResource {

  private final BillingStore store;

  public BillingDueResource(BillingStore store) {
    this.store = store;
  }

  @GET
  @Path("/due-payments")
  public PageView<DuePaymentView> duePayments(
      @QueryParam("date") String date,
      @QueryParam("pageToken") String pageToken,
      @QueryParam("limit") String limit) {
    LocalDate day = requireDate(date);
    var page = PageParams.of(pageToken, limit);
    return PageView.of(store.getDuePaymentsByDate(day, page), DuePaymentView::of);
  }

  @GET
  @Path("/due-reminders")
  public PageView<DueReminderView> dueReminders(
      @QueryParam("date") String date,
      @QueryParam("pageToken") String pageToken,
      @QueryParam("limit") String limit) {
    LocalDate day = requireDate(date);
    var page = PageParams.of(pageToken, limit);
    return PageView.of(store.getDueRemindersByDate(day, page), DueReminderView::of);
  }

  private static LocalDate requireDate(String date) {
    if (date == null || date.isBlank()) {
      throw ApiProblem.invalid("date", "date is required, e.g. ?date=2026-01-31");
    }
    try {
      return LocalDate.parse(date.strip());
    } catch (DateTimeParseException e) {
      throw ApiProblem.invalid("date", "date must be a date such as \"2026-01-31\"");
    }
  }
}
