package dev.billing.api.errors;

import java.util.List;

/**
 * The one error body of the API (RFC 9457 problem details, served as application/problem+json).
 * {@code errors} is always present, empty when no single input is to blame.
 */
public record Problem(String type, String title, int status, String detail, List<FieldError> errors) {

  public static final String TYPE_BASE = "https://billing.dev/problems/";

  public Problem {
    errors = errors == null ? List.of() : List.copyOf(errors);
  }
}
