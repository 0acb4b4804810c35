package dev.billing.api.ops;

import dev.billing.api.errors.ApiProblem;
import dev.billing.api.resources.IdempotencyKeys;
import dev.billing.api.resources.PageParams;
import dev.billing.api.resources.PathIds;
import dev.billing.api.views.PageView;
import dev.billing.domain.reconciliation.Finding;
import dev.billing.domain.reconciliation.FindingKind.Check;
import dev.billing.domain.reconciliation.ReconciliationSummary;
import dev.billing.store.BillingStore;
import dev.billing.store.Page;
import dev.billing.store.ReconciliationReports;
import dev.billing.workflows.reconciliation.ReconciliationInput;
import dev.billing.workflows.reconciliation.SubscriptionRepairInput;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriBuilder;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Operators' view of reconciliation (issue 6): the reports of past runs, and a run started now
 * (over a window of due dates, or for one subscription). Under /v1/ops, which the API's
 * authentication reserves for operators.
 */
@Path("/v1/ops/reconciliations")
@Produces(MediaType.APPLICATION_JSON)
public final class ReconciliationResource {
  /** Temporal run ids are UUIDs; anything else cannot name a report. */
  private static final Pattern REPORT_ID = Pattern.compile("[0-9a-fA-F-]{1,64}");

  private final ReconciliationReports reports;
  private final Reconciliations runs;
  private final BillingStore store;
  private final InstantSource clock;

  /**
   * @param store where a run for one subscription finds it first (404 when it does not exist)
   */
  public ReconciliationResource(
      ReconciliationReports reports,
      Reconciliations runs,
      BillingStore store,
      InstantSource clock) {
    this.reports = reports;
    this.runs = runs;
    this.store = store;
    this.clock = clock;
  }

  /** Reports, newest first. */
  @GET
  public PageView<ReconciliationView> list(
      @QueryParam("pageToken") String pageToken, @QueryParam("limit") String limit) {
    return PageView.of(
        reports.list(clock.instant(), PageParams.of(pageToken, limit)), ReconciliationView::of);
  }

  /** One report with a page of its findings. */
  @GET
  @Path("/{id}")
  public ReconciliationReportView get(
      @PathParam("id") String id,
      @QueryParam("pageToken") String pageToken,
      @QueryParam("limit") String limit) {
    if (!REPORT_ID.matcher(id).matches()) {
      throw ApiProblem.notFound("There is no reconciliation report " + id + ".");
    }
    var page = PageParams.of(pageToken, limit);
    ReconciliationSummary summary =
        reports
            .get(id, clock.instant())
            .orElseThrow(
                () ->
                    ApiProblem.notFound(
                        "There is no reconciliation report "
                            + id
                            + " (reports are kept "
                            + ReconciliationReports.RETENTION.toDays()
                            + " days; a run just started writes its"
                            + " report within seconds)."));
    Page<Finding> findings = reports.findings(id, clock.instant(), page);
    return new ReconciliationReportView(
        ReconciliationView.of(summary),
        findings.items().stream().map(FindingView::of).toList(),
        findings.nextPageToken());
  }

  /**
   * Starts a run now (202, Location of its report): over a window of dates, or a repair of the one
   * subscription the body names. An Idempotency-Key makes a retry return the run the first request
   * started; the same key with another body is a 409.
   */
  @POST
  @Consumes(MediaType.APPLICATION_JSON)
  public Response start(
      StartReconciliationRequest request,
      @HeaderParam(IdempotencyKeys.HEADER) String idempotencyKey,
      @Context SecurityContext security) {
    String key = IdempotencyKeys.validate(idempotencyKey);
    boolean repair = request == null || request.repair() == null || request.repair();
    String principal =
        security == null || security.getUserPrincipal() == null
            ? null
            : security.getUserPrincipal().getName();
    String trigger = principal == null ? "api" : "api:" + principal;
    Reconciliations.Started started;
    if (namesASubscription(request)) {
      started = runs.start(subscriptionRepair(request, repair, trigger), key);
    } else {
      int lookback =
          request == null || request.lookbackDays() == null
              ? ReconciliationInput.DEFAULT_LOOKBACK_DAYS
              : request.lookbackDays();
      if (lookback < 1 || lookback > ReconciliationInput.MAX_LOOKBACK_DAYS) {
        throw ApiProblem.invalid(
            "lookbackDays",
            "lookbackDays must be between 1 and " + ReconciliationInput.MAX_LOOKBACK_DAYS);
      }
      List<Check> checks = checks(request == null ? null : request.checks());
      started =
          runs.start(
              new ReconciliationInput(
                  lookback, repair, ReconciliationInput.trigger(trigger, checks), checks),
              key);
    }
    return Response.accepted(
            new StartedReconciliationView(
                started.reportId(), started.workflowId(), started.started()))
        .location(
            UriBuilder.fromResource(ReconciliationResource.class).path(started.reportId()).build())
        .build();
  }

  /**
   * The checks a request names; null when it names none (all three). An empty list is refused
   * rather than read as "all": a client that filtered its list down to nothing did not ask for
   * everything. Values are not repeated in the answer (a body may carry anything).
   */
  private static List<Check> checks(List<String> names) {
    if (names == null) {
      return null;
    }
    String known = Arrays.stream(Check.values()).map(Check::name).collect(Collectors.joining(", "));
    if (names.isEmpty()) {
      throw ApiProblem.invalid(
          "checks", "checks must name at least one of " + known + "; leave it out for all three");
    }
    EnumSet<Check> checks = EnumSet.noneOf(Check.class);
    for (String name : names) {
      checks.add(
          Arrays.stream(Check.values())
              .filter(check -> check.name().equals(name))
              .findFirst()
              .orElseThrow(
                  () ->
                      ApiProblem.invalid(
                          "checks", "checks may name only " + known + " (upper case)")));
    }
    return List.copyOf(checks);
  }

  private static boolean namesASubscription(StartReconciliationRequest request) {
    return request != null && (request.accountId() != null || request.subscriptionId() != null);
  }

  /** The repair of the one subscription the request names; 400 or 404 when it cannot be. */
  private SubscriptionRepairInput subscriptionRepair(
      StartReconciliationRequest request, boolean repair, String trigger) {
    String account = PathIds.require("accountId", request.accountId());
    String subscription = PathIds.require("subscriptionId", request.subscriptionId());
    if (request.lookbackDays() != null) {
      throw ApiProblem.invalid(
          "lookbackDays", "a run for one subscription has no window; leave lookbackDays out");
    }
    if (request.checks() != null) {
      throw ApiProblem.invalid(
          "checks", "a run for one subscription checks its drift only; leave checks out");
    }
    if (store.getSubscription(account, subscription).isEmpty()) {
      throw ApiProblem.notFound(
          "Account " + account + " has no subscription " + subscription + ".");
    }
    return new SubscriptionRepairInput(account, subscription, repair, trigger);
  }
}
