package dev.billing.api.endpoints;

import dev.billing.api.errors.ApiProblem;
import dev.billing.api.errors.FieldError;
import dev.billing.domain.MerchantEventType;
import dev.billing.domain.net.PublicAddresses;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Checks a webhook endpoint as an operator registers it; every bad field is named in one 400.
 * Duplicate event types are collapsed (the first occurrence keeps its place): asking twice for the
 * same event means the same thing as asking once. "*" stands for every event and so comes alone.
 */
final class EndpointInput {
  static final int MAX_URL = 2048;
  static final int MAX_DESCRIPTION = 500;
  static final String ALL_EVENTS = "*";

  /**
   * The types billing writes (domain's table): an endpoint cannot wait for one that never comes.
   */
  static final Set<String> EVENT_TYPES =
      Arrays.stream(MerchantEventType.values())
          .map(MerchantEventType::wireName)
          .collect(Collectors.toUnmodifiableSet());

  private static final Set<String> LOOPBACK_HOSTS = Set.of("localhost", "127.0.0.1");

  /** A checked request: events without duplicates. */
  record Checked(String url, List<String> events, String description) {}

  private final boolean devStack;

  /**
   * @param devStack whether this API is the dev stack, where plain http to this machine is allowed
   *     so that a local receiver needs no certificate
   */
  EndpointInput(boolean devStack) {
    this.devStack = devStack;
  }

  Checked check(WebhookEndpointResource.CreateRequest body) {
    if (body == null) {
      throw ApiProblem.invalid(
          null, "a JSON object with the endpoint's url and events is required");
    }
    List<FieldError> errors = new ArrayList<>();
    String urlProblem = urlProblem(body.url());
    if (urlProblem == null) {
      urlProblem = hostProblem(URI.create(body.url()).getHost());
    }
    if (urlProblem != null) {
      errors.add(new FieldError("url", urlProblem));
    }
    List<String> events = events(body.events(), errors);
    String description = body.description();
    if (description != null
        && (description.length() > MAX_DESCRIPTION
            || description.chars().anyMatch(Character::isISOControl))) {
      errors.add(
          new FieldError(
              "description",
              "description must be at most "
                  + MAX_DESCRIPTION
                  + " characters, without control characters"));
    }
    if (!errors.isEmpty()) {
      throw ApiProblem.invalid(errors);
    }
    return new Checked(body.url(), events, description);
  }

  private String urlProblem(String url) {
    if (url == null) {
      return "url is required";
    }
    String rule =
        devStack
            ? "url must be an absolute https URL (http only to localhost or 127.0.0.1) without"
                + " user information, at most "
                + MAX_URL
                + " characters"
            : "url must be an absolute https URL without user information, at most "
                + MAX_URL
                + " characters";
    if (url.length() > MAX_URL) {
      return rule;
    }
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      return rule;
    }
    if (!uri.isAbsolute()
        || uri.isOpaque()
        || uri.getHost() == null
        || uri.getRawUserInfo() != null
        || uri.getRawAuthority().contains("@")) {
      return rule;
    }
    String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
    boolean localHttp =
        devStack
            && scheme.equals("http")
            && LOOPBACK_HOSTS.contains(uri.getHost().toLowerCase(Locale.ROOT));
    return scheme.equals("https") || localHttp ? null : rule;
  }

  /**
   * An endpoint is on the public internet: one inside our network would let anyone who can register
   * an endpoint make the service post to it (deliveries check each resolved address again).
   */
  private String hostProblem(String host) {
    String name = host.toLowerCase(Locale.ROOT);
    if (devStack && LOOPBACK_HOSTS.contains(name)) {
      return null;
    }
    String refusal = PublicAddresses.hostRefusal(name);
    return refusal == null
        ? null
        : "url host "
            + host
            + " "
            + refusal
            + ": webhook endpoints must be reachable on the public internet";
  }

  private static List<String> events(List<String> events, List<FieldError> errors) {
    if (events == null || events.isEmpty()) {
      errors.add(new FieldError("events", "events is required: one or more event types, or \"*\""));
      return List.of();
    }
    Set<String> distinct = new LinkedHashSet<>();
    for (int i = 0; i < events.size(); i++) {
      String event = events.get(i);
      if (event == null || !(EVENT_TYPES.contains(event) || ALL_EVENTS.equals(event))) {
        errors.add(
            new FieldError(
                "events[" + i + "]",
                "events[" + i + "] is not an event type; see the API reference for the list"));
      } else {
        distinct.add(event);
      }
    }
    if (distinct.contains(ALL_EVENTS) && distinct.size() > 1) {
      errors.add(new FieldError("events", "\"*\" already stands for every event: send it alone"));
    }
    return List.copyOf(distinct);
  }
}
