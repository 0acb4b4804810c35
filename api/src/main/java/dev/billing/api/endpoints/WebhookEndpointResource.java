package dev.billing.api.endpoints;

import dev.billing.activities.views.Timestamps;
import dev.billing.api.errors.ApiProblem;
import dev.billing.api.resources.PageParams;
import dev.billing.api.views.PageView;
import dev.billing.store.EventDeliveryStore;
import dev.billing.store.endpoints.WebhookEndpoint;
import dev.billing.store.endpoints.WebhookEndpointStore;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.CacheControl;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.security.SecureRandom;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code /v1/webhook-endpoints}: where merchants receive events, managed by operators
 * (operator-only like every path outside /v1/accounts). The signing secret is in the create
 * response only; reads never show it.
 */
@Path("/v1/webhook-endpoints")
@Produces(MediaType.APPLICATION_JSON)
public final class WebhookEndpointResource {
  /** "we_" and 24 hex digits: 96 random bits, so a collision is a retry, not a risk. */
  static final Pattern ID = Pattern.compile("^we_[0-9a-f]{24}$");

  private static final int ID_ATTEMPTS = 3;
  private static final int SECRET_BYTES = 32;

  private final WebhookEndpointStore endpoints;
  private final EventDeliveryStore deliveries;
  private final EndpointInput input;
  private final InstantSource clock;
  private final SecureRandom random = new SecureRandom();

  /**
   * @param devStack whether this API is the dev stack: it accepts http URLs to this machine
   */
  public WebhookEndpointResource(
      WebhookEndpointStore endpoints,
      EventDeliveryStore deliveries,
      InstantSource clock,
      boolean devStack) {
    this.endpoints = Objects.requireNonNull(endpoints, "endpoints");
    this.deliveries = Objects.requireNonNull(deliveries, "deliveries");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.input = new EndpointInput(devStack);
  }

  /** The body of a create. */
  public record CreateRequest(String url, List<String> events, String description) {}

  /**
   * An endpoint as read: no secret.
   *
   * @param status "enabled", or "disabled" once its deliveries kept failing
   * @param disabledAt when delivery disabled it, null while enabled
   * @param disabledReason why, null while enabled
   */
  public record EndpointView(
      String id,
      String url,
      List<String> events,
      String description,
      String createdAt,
      String status,
      String disabledAt,
      String disabledReason) {
    static EndpointView of(WebhookEndpoint endpoint) {
      return new EndpointView(
          endpoint.id(),
          endpoint.url(),
          endpoint.events(),
          endpoint.description(),
          Timestamps.instant(endpoint.createdAt()),
          endpoint.status().wireName(),
          endpoint.disabledAt() == null ? null : Timestamps.instant(endpoint.disabledAt()),
          endpoint.disabledReason());
    }
  }

  /** The create response: the endpoint and, this once, its signing secret. */
  public record CreatedEndpointView(
      String id,
      String url,
      List<String> events,
      String description,
      String createdAt,
      String status,
      String disabledAt,
      String disabledReason,
      String secret) {}

  @POST
  @Consumes(MediaType.APPLICATION_JSON)
  public Response create(CreateRequest body, @Context UriInfo uri) {
    EndpointInput.Checked checked = input.check(body);
    String secret = newSecret();
    for (int attempt = 0; attempt < ID_ATTEMPTS; attempt++) {
      WebhookEndpoint endpoint =
          new WebhookEndpoint(
              newId(),
              checked.url(),
              checked.events(),
              checked.description(),
              clock.instant().truncatedTo(ChronoUnit.MILLIS));
      if (endpoints.create(endpoint, secret)) {
        CacheControl noStore = new CacheControl();
        noStore.setNoStore(true);
        EndpointView view = EndpointView.of(endpoint);
        return Response.created(
                uri.getBaseUriBuilder().path("v1/webhook-endpoints/{id}").build(endpoint.id()))
            .cacheControl(noStore)
            .entity(
                new CreatedEndpointView(
                    view.id(),
                    view.url(),
                    view.events(),
                    view.description(),
                    view.createdAt(),
                    view.status(),
                    view.disabledAt(),
                    view.disabledReason(),
                    secret))
            .build();
      }
    }
    throw new IllegalStateException("no free webhook endpoint id in " + ID_ATTEMPTS + " attempts");
  }

  @GET
  public PageView<EndpointView> list(
      @QueryParam("pageToken") String pageToken, @QueryParam("limit") String limit) {
    return PageView.of(endpoints.list(PageParams.of(pageToken, limit)), EndpointView::of);
  }

  @GET
  @Path("/{endpointId}")
  public EndpointView get(@PathParam("endpointId") String endpointId) {
    Optional<WebhookEndpoint> endpoint =
        ID.matcher(endpointId).matches() ? endpoints.find(endpointId) : Optional.empty();
    return endpoint.map(EndpointView::of).orElseThrow(() -> notFound(endpointId));
  }

  /**
   * The endpoint's delivery attempts, newest first: every POST with its answer, and the end of each
   * delivery (SUCCEEDED, or FAILED when its retries ran out or the endpoint refused it for good).
   */
  @GET
  @Path("/{endpointId}/deliveries")
  public PageView<DeliveryAttemptView> deliveries(
      @PathParam("endpointId") String endpointId,
      @QueryParam("pageToken") String pageToken,
      @QueryParam("limit") String limit) {
    var page = PageParams.of(pageToken, limit);
    if (!ID.matcher(endpointId).matches() || endpoints.find(endpointId).isEmpty()) {
      throw notFound(endpointId);
    }
    return PageView.of(deliveries.attempts(endpointId, page), DeliveryAttemptView::of);
  }

  /**
   * Enables an endpoint delivery disabled, with a fresh start: it may fail for the whole configured
   * time again before it is disabled again. Enabling an enabled endpoint changes nothing. Events it
   * missed meanwhile are not sent by this; {@code POST /v1/events/{id}/redeliver} sends each again.
   */
  @POST
  @Path("/{endpointId}/enable")
  public EndpointView enable(@PathParam("endpointId") String endpointId) {
    Optional<WebhookEndpoint> endpoint =
        ID.matcher(endpointId).matches() ? endpoints.enable(endpointId) : Optional.empty();
    return endpoint.map(EndpointView::of).orElseThrow(() -> notFound(endpointId));
  }

  /** Deleting twice is a 404 the second time: nothing is there any more. */
  @DELETE
  @Path("/{endpointId}")
  public Response delete(@PathParam("endpointId") String endpointId) {
    if (!ID.matcher(endpointId).matches() || !endpoints.delete(endpointId)) {
      throw notFound(endpointId);
    }
    return Response.noContent().build();
  }

  private String newId() {
    byte[] bytes = new byte[12];
    random.nextBytes(bytes);
    return "we_" + HexFormat.of().formatHex(bytes);
  }

  /** "whsec_" and 32 random bytes, base64url: the shape merchants know from other gateways. */
  private String newSecret() {
    byte[] bytes = new byte[SECRET_BYTES];
    random.nextBytes(bytes);
    return "whsec_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  private static ApiProblem notFound(String endpointId) {
    return ApiProblem.notFound("There is no webhook endpoint " + endpointId + ".");
  }
}
