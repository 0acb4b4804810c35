package dev.billing.api.webhooks;

import dev.billing.activities.payments.PaymentEventIntake;
import dev.billing.activities.payments.stripe.StripeWebhookReads;
import dev.billing.api.errors.ApiProblem;
import dev.billing.api.errors.ProblemResponses;
import dev.billing.store.events.PaymentEventStore;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /v1/webhooks/{provider}}: a gateway's event deliveries. The signature covers the raw
 * bytes, so the body is read as bytes and checked before anything parses it; a delivery that fails
 * the check is answered 400 or 401 and leaves no trace. An accepted event is stored once, then
 * signalled to its subscription's workflow on every delivery: an earlier delivery may have stored
 * it and failed to signal, and the workflow ignores an event id it has seen.
 */
@Path("/v1/webhooks/{provider}")
@Produces(MediaType.APPLICATION_JSON)
public final class WebhookResource {
  /**
   * Stripe's events are a few kilobytes; a quarter of a megabyte leaves room and bounds the work.
   */
  public static final int MAX_BODY_BYTES = 256 * 1024;

  static final String RETRY_AFTER_SECONDS = "5";
  private static final Logger LOG = LoggerFactory.getLogger(WebhookResource.class);

  private final Map<String, Endpoint> endpoints;
  private final PaymentEventIntake intake;
  private final InstantSource clock;

  private record Endpoint(WebhookProvider provider, byte[] secret) {}

  /**
   * @param clock judges the signatures' timestamps; in the dev stack the test server's clock, which
   *     the sandbox gateway signs with too
   */
  public static WebhookResource create(
      WebhookSettings settings,
      PaymentEventStore events,
      PaymentEventIntake.Signals signals,
      InstantSource clock) {
    return create(settings, events, signals, clock, StripeWebhookReads.NONE);
  }

  /**
   * @param stripeChargeMethods a Stripe Charge's payment method type, which tells a returned bank
   *     debit from a card chargeback, and its refunds; empty when this process cannot read Stripe
   */
  public static WebhookResource create(
      WebhookSettings settings,
      PaymentEventStore events,
      PaymentEventIntake.Signals signals,
      InstantSource clock,
      StripeWebhookReads stripeChargeMethods) {
    List<WebhookProvider> providers =
        List.of(
            new SandboxEvents(),
            new StripeEvents(
                paymentIntent -> events.ownerOf(WebhookProvider.STRIPE, paymentIntent),
                stripeChargeMethods));
    return new WebhookResource(providers, settings.secrets(), events, signals, clock);
  }

  WebhookResource(
      List<WebhookProvider> providers,
      Map<String, byte[]> secrets,
      PaymentEventStore events,
      PaymentEventIntake.Signals signals,
      InstantSource clock) {
    Map<String, Endpoint> endpoints = new LinkedHashMap<>();
    for (WebhookProvider provider : providers) {
      byte[] secret = secrets.get(provider.name());
      if (secret != null) {
        endpoints.put(provider.name(), new Endpoint(provider, secret.clone()));
      }
    }
    this.endpoints = Map.copyOf(endpoints);
    // The same handling as reconciliation's replay of missed webhooks (worker).
    this.intake = new PaymentEventIntake(events, signals);
    this.clock = clock;
    LOG.info(
        "Webhook endpoints: {} (a provider without a signing secret has none)",
        endpoints.isEmpty() ? "none" : endpoints.keySet());
  }

  @POST
  public Response receive(
      @PathParam("provider") String name, @Context HttpHeaders headers, InputStream body) {
    Endpoint endpoint = endpoints.get(name);
    if (endpoint == null) {
      throw ApiProblem.notFound("There is no webhook endpoint for this provider.");
    }
    SignatureHeader signature = signatureHeader(endpoint.provider().signatureHeader(), headers);
    byte[] raw = read(body);
    Instant now = clock.instant();

    switch (endpoint.provider().verify(signature, raw, endpoint.secret(), now)) {
      case MISMATCH ->
          throw unauthorized("The signature does not match the body under this endpoint's secret.");
      case OUTSIDE_TOLERANCE ->
          throw unauthorized(
              "The signature's timestamp is more than "
                  + WebhookSignatures.TOLERANCE.toSeconds()
                  + " seconds from now.");
      case VALID -> {}
    }

    ParsedEvent event;
    try {
      event = parse(endpoint.provider(), raw, now);
    } catch (WebhookDependencyException e) {
      LOG.warn("{} {}", name, e.getMessage());
      return Response.fromResponse(
              ProblemResponses.of(
                  ApiProblem.unavailable("The event cannot be read now; deliver it again.")))
          .header("Retry-After", RETRY_AFTER_SECONDS)
          .build();
    }
    PaymentEventIntake.Result result;
    try {
      result = intake.accept(event.stored(), event.signal());
    } catch (PaymentEventIntake.SignalFailedException e) {
      // Stored, not delivered: a 503 makes the provider deliver again, and that delivery signals.
      LOG.warn("{} {}", name, e.getMessage());
      return Response.fromResponse(
              ProblemResponses.of(
                  ApiProblem.unavailable(
                      "The event was received but could not be passed on; deliver it again.")))
          .header("Retry-After", RETRY_AFTER_SECONDS)
          .build();
    }
    switch (result.outcome()) {
      case STORED_ONLY -> logUnsignalled(event, result.duplicate());
      // Nothing to deliver to now: the event is stored, and the daily reconciliation compares the
      // gateway with the periods and reports what it left undone. Logged for operators.
      case NO_WORKFLOW ->
          LOG.warn(
              "{} event {} ({}) is for subscription {}, which has no running"
                  + " workflow; stored, not signalled",
              name,
              event.stored().eventId(),
              event.stored().type(),
              event.signal().subscriptionId());
      case RESTARTED ->
          LOG.info(
              "{} event {} ({}) moved money after subscription {} ended; its workflow was"
                  + " started again from the record to record it",
              name,
              event.stored().eventId(),
              event.stored().type(),
              event.signal().subscriptionId());
      case SIGNALLED -> {}
    }
    return Response.ok(new WebhookReceipt(true, result.duplicate())).build();
  }

  private static SignatureHeader signatureHeader(String header, HttpHeaders headers) {
    List<String> values = headers.getRequestHeader(header);
    if (values == null || values.isEmpty() || values.get(0).isBlank()) {
      throw ApiProblem.invalid(header, "is required: every delivery is signed");
    }
    if (values.size() > 1) {
      throw ApiProblem.invalid(header, "must be sent once");
    }
    try {
      return SignatureHeader.parse(values.get(0));
    } catch (IllegalArgumentException e) {
      throw ApiProblem.invalid(header, e.getMessage());
    }
  }

  /** How much of an oversized body is read and thrown away before answering 413. */
  static final int MAX_DRAINED_BYTES = 1024 * 1024;

  /**
   * At most one byte more than allowed is kept: enough to know the body is too large, whatever its
   * Content-Length said (a declared length is not trusted). The rest of a moderately oversized body
   * is drained, so the client, still writing, gets the 413 on a connection that stays usable
   * instead of a broken pipe; a larger one is cut off.
   */
  private static byte[] read(InputStream body) {
    try {
      byte[] raw = body == null ? new byte[0] : body.readNBytes(MAX_BODY_BYTES + 1);
      if (raw.length > MAX_BODY_BYTES) {
        byte[] sink = new byte[8192];
        long drained = 0;
        for (int n; drained < MAX_DRAINED_BYTES && (n = body.read(sink)) >= 0; ) {
          drained += n;
        }
        throw tooLarge();
      }
      return raw;
    } catch (IOException e) {
      throw ApiProblem.invalid("body", "could not be read: " + e.getClass().getSimpleName());
    }
  }

  private static ParsedEvent parse(WebhookProvider provider, byte[] raw, Instant receivedAt) {
    try {
      return provider.parse(raw, receivedAt);
    } catch (WebhookPayloadException | IllegalArgumentException e) {
      throw ApiProblem.invalid("body", e.getMessage());
    }
  }

  private static void logUnsignalled(ParsedEvent event, boolean duplicate) {
    if (event.lacksOurMetadata()) {
      // INFO, not WARN: a Stripe account also carries charges that are not billing's.
      LOG.info(
          "{} event {} ({}) stored{}, not signalled: {}",
          event.stored().provider(),
          event.stored().eventId(),
          event.stored().type(),
          duplicate ? " before" : "",
          event.unsignalled());
    } else {
      LOG.debug(
          "{} event {} ({}) stored, not signalled: {}",
          event.stored().provider(),
          event.stored().eventId(),
          event.stored().type(),
          event.unsignalled());
    }
  }

  private static ApiProblem unauthorized(String detail) {
    return new ApiProblem(401, "invalid-signature", "Invalid webhook signature", detail, List.of());
  }

  private static ApiProblem tooLarge() {
    return new ApiProblem(
        413,
        "payload-too-large",
        "Payload too large",
        "A webhook body is at most " + MAX_BODY_BYTES + " bytes.",
        List.of());
  }
}
