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
 */
public record WebhookEndpoint(
    String id, String url, List<String> events, String description, Instant createdAt) {
  public WebhookEndpoint {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(createdAt, "createdAt");
    events = List.copyOf(events);
  }

  /** Every type is sent to an endpoint registered for "*". */
  public static final String ALL = "*";

  /** Whether events of this type (its wire name) go to this endpoint. */
  public boolean wants(String eventType) {
    return events.contains(ALL) || events.contains(eventType);
  }
}
