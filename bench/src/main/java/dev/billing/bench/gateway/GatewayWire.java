package dev.billing.bench.gateway;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.billing.activities.payments.DeclineKind;
import dev.billing.activities.payments.GatewayUnavailableException;
import dev.billing.activities.payments.IdempotencyConflictException;
import dev.billing.activities.payments.InvalidGatewayRequestException;
import dev.billing.activities.payments.PaymentDeclinedException;
import dev.billing.activities.payments.PaymentGatewayException;
import java.time.Instant;

/**
 * What {@link GatewayHttpServer} and {@link HttpGateway} say to each other: the port's own records
 * as JSON, one path per operation, and each of the port's exceptions as a status and an {@link
 * Error} body, so the worker's side throws what the gateway threw.
 */
final class GatewayWire {
  static final String CHARGE = "/charge";
  static final String REFUND = "/refund";
  static final String LOOK_UP = "/look-up";
  static final String LIST_CHARGES = "/list-charges";
  static final String LIST_EVENTS = "/list-events";

  static final int DECLINED = 402;
  static final int CONFLICT = 409;
  static final int INVALID = 400;
  static final int UNAVAILABLE = 503;

  private GatewayWire() {}

  static ObjectMapper mapper() {
    return new ObjectMapper()
        .registerModule(new JavaTimeModule())
        .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
  }

  /** The body of a list request: {@code [from, to)}. */
  record Window(Instant from, Instant to) {}

  /**
   * A failure as it travels.
   *
   * @param code the decline's or the invalid request's code; null for the others
   * @param kind the decline's kind; null for the others
   */
  record Error(String type, String code, DeclineKind kind, String message) {}

  static int status(PaymentGatewayException e) {
    if (e instanceof PaymentDeclinedException) {
      return DECLINED;
    }
    if (e instanceof IdempotencyConflictException) {
      return CONFLICT;
    }
    if (e instanceof InvalidGatewayRequestException) {
      return INVALID;
    }
    return UNAVAILABLE;
  }

  static Error error(PaymentGatewayException e) {
    if (e instanceof PaymentDeclinedException declined) {
      return new Error("declined", declined.code(), declined.kind(), e.getMessage());
    }
    if (e instanceof IdempotencyConflictException) {
      return new Error("idempotency_conflict", null, null, e.getMessage());
    }
    if (e instanceof InvalidGatewayRequestException invalid) {
      return new Error("invalid_request", invalid.code(), null, e.getMessage());
    }
    return new Error("unavailable", null, null, e.getMessage());
  }

  /**
   * The exception an answer stands for. A status or a body this side does not know (a proxy's 502,
   * a 429, a server bug's 500) leaves the outcome unknown: unavailable, retried with the same key.
   */
  static PaymentGatewayException exception(int status, Error error, String operation) {
    if (error != null && error.type() != null) {
      switch (error.type()) {
        case "declined" -> {
          return error.kind() == null
              ? new PaymentDeclinedException(error.code(), error.message())
              : new PaymentDeclinedException(error.code(), error.message(), error.kind());
        }
        case "idempotency_conflict" -> {
          return new IdempotencyConflictException(error.message(), null);
        }
        case "invalid_request" -> {
          return new InvalidGatewayRequestException(error.code(), error.message());
        }
        case "unavailable" -> {
          return new GatewayUnavailableException(error.message(), null);
        }
        default -> {}
      }
    }
    return new GatewayUnavailableException(
        "the gateway answered "
            + operation
            + " with HTTP "
            + status
            + (error == null || error.message() == null ? "" : ": " + error.message()),
        null);
  }
}
