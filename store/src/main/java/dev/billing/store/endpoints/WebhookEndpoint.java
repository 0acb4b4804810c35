package dev.billing.store.endpoints;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Where a merchant receives events: an operator's registration. The signing secret is not part of
 * it; {@link WebhookEndpointStore#secret} reads it on purpose only.
 *
 * @param events the event types sent there, "*" for all
 * @param description free text of the operator's, or null
 * @param status whether deliveries go there; delivery disables an endpoint that kept failing
 * @param disabledAt when it was disabled, or null while enabled
 * @param disabledReason why, in words for an operator, or null while enabled
 * @param failingSince the first failed attempt after its last success (or its enabling), or null
 *     when its latest attempt succeeded: the start of the streak that disables it
 * @param lastFailedAt a failed attempt of the streak, at most {@code WebhookEndpointStore}'s
 *     refresh interval older than its latest, or null (none, or written before it was stored): a
 *     long gap since it ends the streak
 */
public record WebhookEndpoint(
    String id,
    String url,
    List<String> events,
    String description,
    Instant createdAt,
    Status status,
    Instant disabledAt,
    String disabledReason,
    Instant failingSince,
    Instant lastFailedAt) {
  public WebhookEndpoint {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(status, "status");
    events = List.copyOf(events);
  }

  /** A new registration: enabled, no failure yet. */
  public WebhookEndpoint(
      String id, String url, List<String> events, String description, Instant createdAt) {
    this(id, url, events, description, createdAt, Status.ENABLED, null, null, null, null);
  }

  /** Every type is sent to an endpoint registered for "*". */
  public static final String ALL = "*";

  /** Whether deliveries go to the endpoint. */
  public enum Status {
    ENABLED,
    /** Its deliveries kept failing: nothing is sent there until an operator enables it again. */
    DISABLED;

    /** The name in the API: lower case. */
    public String wireName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** Whether events of this type (its wire name) go to this endpoint. */
  public boolean wants(String eventType) {
    return events.contains(ALL) || events.contains(eventType);
  }

  public boolean enabled() {
    return status == Status.ENABLED;
  }
}
