package dev.billing.activities.delivery;

import dev.billing.activities.views.EventView;
import dev.billing.store.DeliveryAttempt;
import dev.billing.store.EventDeliveryState;
import dev.billing.store.endpoints.WebhookEndpoint;
import dev.billing.workflows.activities.DeliverEventInput;
import dev.billing.workflows.activities.DeliverEventResult;
import dev.billing.workflows.activities.DeliverEventResult.Outcome;
import dev.billing.workflows.activities.DeliveryActivities;
import dev.billing.workflows.activities.DeliveryFailureInput;
import dev.billing.workflows.activities.DeliveryFailureResult;
import dev.billing.workflows.activities.PlanDeliveriesInput;
import dev.billing.workflows.activities.PlanDeliveriesResult;
import dev.billing.workflows.activities.SettleEventInput;
import dev.billing.workflows.activities.SettleEventResult;
import dev.billing.workflows.delivery.EventOrder;
import io.temporal.activity.Activity;
import io.temporal.failure.ApplicationFailure;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivery's steps. Every POST is recorded as an attempt before the activity ends, and the end of a
 * delivery (2xx, 410, an address refused, a disabled endpoint) in the same transaction as the
 * event's finished set, so a retry that finds the endpoint in that set sends nothing again. After
 * each attempt {@link EndpointHealth} may disable an endpoint that kept failing; a disabled
 * endpoint's deliveries end FAILED ({@code endpoint_disabled}) without a POST, here and when
 * planned, so its queues empty at once. Nothing here logs or records a secret, a URL (it may carry
 * a token) or a response body: the endpoint's id stands for it.
 */
public final class DeliveryActivitiesImpl implements DeliveryActivities {
  private static final Logger log = LoggerFactory.getLogger(DeliveryActivitiesImpl.class);

  /** The type of a failed attempt (retried); never one of the workflow's do-not-retry types. */
  static final String DELIVERY_FAILED = "DeliveryFailed";

  /**
   * How far back planning looks for earlier owed events: as long as attempts are kept, longer than
   * any retry window or sweep look-back, so only an event no path would send any more is left out.
   */
  private static final Duration OWED_LOOKBACK = Duration.ofDays(30);

  private final DeliveryDependencies d;
  private final EndpointHealth health;

  public DeliveryActivitiesImpl(DeliveryDependencies dependencies) {
    this.d = Objects.requireNonNull(dependencies, "dependencies");
    this.health = new EndpointHealth(d.endpoints(), d.disabling(), d.onDisabled());
  }

  @Override
  public PlanDeliveriesResult plan(PlanDeliveriesInput input) {
    List<WebhookEndpoint> endpoints = d.endpoints().all();
    List<EventDeliveryState> states = new ArrayList<>();
    for (String eventId : input.eventIds()) {
      Optional<EventDeliveryState> found = d.deliveries().event(eventId);
      if (found.isPresent()
          && found.get().event().subscriptionId().equals(input.subscriptionId())) {
        states.add(found.get());
      }
    }
    List<PlanDeliveriesResult.PlannedEvent> planned = new ArrayList<>();
    if (!input.redelivery()) {
      for (EventDeliveryState earlier : earlierOwed(states)) {
        planned.add(planned(earlier, endpoints, false));
      }
    }
    for (EventDeliveryState state : states) {
      planned.add(planned(state, endpoints, input.redelivery()));
    }
    return new PlanDeliveriesResult(planned);
  }

  /**
   * The subscription's events before the latest one asked that are still owed and were not asked:
   * planned first, so no endpoint receives an event while an earlier one it is owed is lost (its
   * hand-off failed) and waits for a sweep. The workflow's lanes ignore those they hold already.
   */
  private List<EventDeliveryState> earlierOwed(List<EventDeliveryState> asked) {
    if (asked.isEmpty()) {
      return List.of();
    }
    Set<String> askedIds = new HashSet<>();
    String latest = null;
    for (EventDeliveryState state : asked) {
      String id = state.event().id();
      askedIds.add(id);
      if (latest == null || EventOrder.BY_ID.compare(id, latest) > 0) {
        latest = id;
      }
    }
    List<EventDeliveryState> earlier = new ArrayList<>();
    for (EventDeliveryState state :
        d.deliveries().owedBefore(latest, d.clock().instant().minus(OWED_LOOKBACK))) {
      if (!askedIds.contains(state.event().id())) {
        earlier.add(state);
      }
    }
    return earlier;
  }

  private PlanDeliveriesResult.PlannedEvent planned(
      EventDeliveryState state, List<WebhookEndpoint> endpoints, boolean redelivery) {
    String eventId = state.event().id();
    String type = state.event().type().wireName();
    List<String> owed = new ArrayList<>();
    if (redelivery || state.owed()) {
      for (WebhookEndpoint endpoint : endpoints) {
        if (!endpoint.wants(type)) {
          continue;
        }
        if (redelivery) {
          if (endpoint.enabled()) {
            owed.add(endpoint.id());
          }
        } else if (!state.finishedFor().contains(endpoint.id())
            && !registeredAfter(endpoint, state)) {
          if (endpoint.enabled() || enabledNow(endpoint)) {
            owed.add(endpoint.id());
          } else {
            // Missed, and listed as such under the endpoint for a redelivery once it is enabled.
            recordDisabled(endpoint.id(), state, 0, false);
          }
        }
      }
    }
    if (!redelivery && owed.isEmpty() && state.owed()) {
      d.deliveries().settle(eventId);
    }
    return new PlanDeliveriesResult.PlannedEvent(eventId, type, state.event().createdAt(), owed);
  }

  /**
   * The endpoint list is read eventually consistent: an endpoint it shows disabled may have been
   * enabled a moment ago. Marking an event missed is final for that endpoint, so it is decided on a
   * consistent read of the endpoint itself.
   */
  private boolean enabledNow(WebhookEndpoint listed) {
    return d.endpoints().find(listed.id()).map(WebhookEndpoint::enabled).orElse(false);
  }

  /**
   * An endpoint gets the events written after it was registered, never the history before it (a
   * sweep may plan an older event that is still owed to others); a redelivery asks for it anyway.
   */
  private static boolean registeredAfter(WebhookEndpoint endpoint, EventDeliveryState state) {
    return endpoint.createdAt().isAfter(state.event().createdAt());
  }

  @Override
  public DeliverEventResult deliver(DeliverEventInput input) {
    // From 1 on Temporal's servers; the SDK's activity test environment reports 0.
    int attempt = Math.max(1, Activity.getExecutionContext().getInfo().getAttempt());
    Optional<WebhookEndpoint> endpoint = d.endpoints().find(input.endpointId());
    if (endpoint.isEmpty()) {
      return new DeliverEventResult(Outcome.ENDPOINT_DELETED, attempt, null);
    }
    EventDeliveryState state =
        d.deliveries()
            .event(input.eventId())
            .orElseThrow(
                () ->
                    ApplicationFailure.newNonRetryableFailure(
                        "no event " + input.eventId(), "NoSuchEvent"));
    if (!input.redelivery() && state.finishedFor().contains(input.endpointId())) {
      // An earlier attempt ended it and was recorded, but its completion never reached Temporal;
      // or planning marked it missed. DELIVERED ends the workflow's lane as before; no HTTP status
      // tells the metrics it was no POST of this attempt (DeliveryOutcomes.alreadyFinished).
      return new DeliverEventResult(Outcome.DELIVERED, attempt, null);
    }
    if (!endpoint.get().enabled()) {
      return endedDisabled(input, state, attempt);
    }
    Optional<String> secret;
    try {
      secret = d.endpoints().secret(input.endpointId());
    } catch (IllegalStateException e) {
      // Sealed under another key: the worker lacks the API's page-token secret, or it was rotated.
      return failedAttempt(input, state, endpoint.get(), attempt, null, "secret_unreadable");
    }
    if (secret.isEmpty()) {
      return new DeliverEventResult(Outcome.ENDPOINT_DELETED, attempt, null);
    }
    URI url = URI.create(endpoint.get().url());
    try {
      String refusal = d.addresses().refusal(url);
      if (refusal != null) {
        log.warn(
            "Delivery of {} to endpoint {} refused: its host {}",
            input.eventId(),
            input.endpointId(),
            refusal);
        Instant at =
            record(
                input, state, attempt, DeliveryAttempt.Status.FAILED, null, "address_not_public");
        health.failed(endpoint.get(), "address_not_public", at);
        return new DeliverEventResult(Outcome.FAILED, attempt, null);
      }
    } catch (UnknownHostException e) {
      return failedAttempt(input, state, endpoint.get(), attempt, null, "dns_failed");
    }
    byte[] body = EventView.json(state.event());
    long now = System.currentTimeMillis() / 1000;
    Map<String, String> headers =
        Map.of(
            "Content-Type",
            "application/json",
            DeliverySignature.HEADER,
            DeliverySignature.header(secret.get(), now, body));
    int status;
    try {
      status = d.poster().post(url, headers, body);
    } catch (HttpTimeoutException e) {
      return failedAttempt(input, state, endpoint.get(), attempt, null, "timeout");
    } catch (ConnectException e) {
      return failedAttempt(input, state, endpoint.get(), attempt, null, "connect_failed");
    } catch (IOException e) {
      return failedAttempt(input, state, endpoint.get(), attempt, null, "io_error");
    }
    if (status >= 200 && status < 300) {
      Instant at = record(input, state, attempt, DeliveryAttempt.Status.SUCCEEDED, status, null);
      // After the record, and best effort: a failed write here must not fail the activity, whose
      // retry would post the event again. A streak left behind ends with the next 2xx.
      health.succeeded(endpoint.get(), at);
      Long lag =
          input.redelivery()
              ? null
              : Math.max(0, Duration.between(state.event().createdAt(), at).toMillis());
      return new DeliverEventResult(Outcome.DELIVERED, attempt, status, lag);
    }
    if (status == 410) {
      // Gone: the product says this endpoint takes no more; retrying cannot change that.
      Instant at = record(input, state, attempt, DeliveryAttempt.Status.FAILED, status, "http_410");
      health.failed(endpoint.get(), "http_410", at);
      return new DeliverEventResult(Outcome.FAILED, attempt, status);
    }
    return failedAttempt(input, state, endpoint.get(), attempt, status, "http_" + status);
  }

  /**
   * Records a failed try and throws it, to be retried with backoff; unless this failure disabled
   * the endpoint (or found it disabled): then the delivery ends FAILED at once.
   */
  private DeliverEventResult failedAttempt(
      DeliverEventInput input,
      EventDeliveryState state,
      WebhookEndpoint endpoint,
      int attempt,
      Integer status,
      String error) {
    Instant at =
        record(input, state, attempt, DeliveryAttempt.Status.FAILED_ATTEMPT, status, error);
    if (health.failed(endpoint, error, at)) {
      return endedDisabled(input, state, attempt);
    }
    throw ApplicationFailure.newFailure(
        "delivery of "
            + input.eventId()
            + " to endpoint "
            + input.endpointId()
            + " failed ("
            + error
            + "); retried with backoff",
        DELIVERY_FAILED);
  }

  private DeliverEventResult endedDisabled(
      DeliverEventInput input, EventDeliveryState state, int attempt) {
    recordDisabled(input.endpointId(), state, attempt, input.lastOwed() && !input.redelivery());
    return new DeliverEventResult(Outcome.FAILED, attempt, null);
  }

  private void recordDisabled(
      String endpointId, EventDeliveryState state, int attempt, boolean lastOwed) {
    d.deliveries()
        .record(
            new DeliveryAttempt(
                endpointId,
                state.event().id(),
                state.event().type().wireName(),
                state.event().subscriptionId(),
                attempt,
                DeliveryAttempt.Status.FAILED,
                null,
                EndpointDisabling.ENDPOINT_DISABLED,
                d.clock().instant()),
            lastOwed);
  }

  /** Returns the time the attempt is recorded at. */
  private Instant record(
      DeliverEventInput input,
      EventDeliveryState state,
      int attempt,
      DeliveryAttempt.Status status,
      Integer httpStatus,
      String error) {
    Instant at = d.clock().instant();
    d.deliveries()
        .record(
            new DeliveryAttempt(
                input.endpointId(),
                input.eventId(),
                state.event().type().wireName(),
                state.event().subscriptionId(),
                attempt,
                status,
                httpStatus,
                error,
                at),
            input.lastOwed() && !input.redelivery());
    return at;
  }

  @Override
  public DeliveryFailureResult recordFailure(DeliveryFailureInput input) {
    d.deliveries()
        .record(
            new DeliveryAttempt(
                input.endpointId(),
                input.eventId(),
                input.eventType(),
                input.subscriptionId(),
                0,
                DeliveryAttempt.Status.FAILED,
                null,
                input.reason(),
                input.at()),
            input.lastOwed());
    return new DeliveryFailureResult(true);
  }

  @Override
  public SettleEventResult settle(SettleEventInput input) {
    d.deliveries().settle(input.eventId());
    return new SettleEventResult(true);
  }
}
