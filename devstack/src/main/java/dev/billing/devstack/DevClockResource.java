package dev.billing.devstack;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.billing.activities.views.Timestamps;
import dev.billing.api.errors.ApiProblem;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * The test clock, like Stripe's test clocks: advancing it makes the Temporal test server fire every
 * timer due on the way, so a user watches months of billing in seconds.
 */
@Path("/v1/dev/clock")
@Produces(MediaType.APPLICATION_JSON)
public final class DevClockResource {

  /** One jump at most: keeps a typo ("P3000D") from running years of billing in one request. */
  static final Duration MAX_ADVANCE = Duration.ofDays(400);

  private final DevTemporal temporal;

  DevClockResource(DevTemporal temporal) {
    this.temporal = temporal;
  }

  public record ClockView(@JsonProperty("now") String now) {
    static ClockView of(Instant now) {
      return new ClockView(Timestamps.instant(now));
    }
  }

  public record AdvanceRequest(@JsonProperty("duration") String duration) {}

  @GET
  public ClockView now() {
    return ClockView.of(temporal.clock().instant());
  }

  @POST
  @Path("/advance")
  @Consumes(MediaType.APPLICATION_JSON)
  public ClockView advance(AdvanceRequest request) {
    Duration duration = parse(request == null ? null : request.duration());
    if (!temporal.hasTestClock()) {
      throw ApiProblem.conflict(
          "no-test-clock",
          "No test clock",
          "The dev stack runs the real Temporal dev server, whose clock is the wall clock; start it"
              + " with BILLING_DEV_TEMPORAL=test-server to move time.");
    }
    return ClockView.of(temporal.advance(duration));
  }

  static Duration parse(String text) {
    if (text == null || text.isBlank()) {
      throw ApiProblem.invalid("duration", "duration is required, e.g. \"P31D\" or \"PT12H\"");
    }
    Duration duration;
    try {
      duration = Duration.parse(text.trim());
    } catch (DateTimeParseException e) {
      throw ApiProblem.invalid(
          "duration",
          "duration must be an ISO-8601 duration in days or hours, e.g. \"P31D\" or \"PT12H\"");
    }
    if (duration.isNegative() || duration.isZero() || duration.compareTo(MAX_ADVANCE) > 0) {
      throw ApiProblem.invalid("duration", "duration must be positive and at most P400D");
    }
    return duration;
  }
}
