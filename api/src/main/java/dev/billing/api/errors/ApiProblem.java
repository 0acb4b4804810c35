package dev.billing.api.errors;

import java.util.List;

/**
 * Thrown by resources to answer with a problem. Carries no stack trace: it is an answer, not a
 * fault.
 */
public class ApiProblem extends RuntimeException {

  private final int status;
  private final String slug;
  private final String title;
  private final List<FieldError> errors;
  private final long retryAfterSeconds;

  public ApiProblem(int status, String slug, String title, String detail, List<FieldError> errors) {
    this(status, slug, title, detail, errors, 0);
  }

  private ApiProblem(
      int status,
      String slug,
      String title,
      String detail,
      List<FieldError> errors,
      long retryAfterSeconds) {
    super(detail, null, false, false);
    this.status = status;
    this.slug = slug;
    this.title = title;
    this.errors = List.copyOf(errors);
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** The same problem with a Retry-After of its own (a 503 otherwise says 5 seconds). */
  public ApiProblem retryAfter(long seconds) {
    return new ApiProblem(status, slug, title, getMessage(), errors, Math.max(1, seconds));
  }

  /** Seconds a caller should wait before retrying; 0 when the problem does not say. */
  public long retryAfterSeconds() {
    return retryAfterSeconds;
  }

  /** 400: one or more inputs are invalid; each is named. */
  public static ApiProblem invalid(List<FieldError> errors) {
    String detail =
        errors.size() == 1
            ? errors.get(0).message()
            : errors.size() + " inputs are invalid; see errors.";
    return new ApiProblem(400, "invalid-request", "The request is invalid", detail, errors);
  }

  public static ApiProblem invalid(String field, String message) {
    return invalid(List.of(new FieldError(field, message)));
  }

  /** 401: no credential, or one that authenticates nobody. */
  public static ApiProblem unauthorized(String detail) {
    return new ApiProblem(401, "unauthorized", "Unauthorized", detail, List.of());
  }

  /** 403: authenticated, but this credential may not use this endpoint. */
  public static ApiProblem forbidden(String detail) {
    return new ApiProblem(403, "forbidden", "Forbidden", detail, List.of());
  }

  /** 413: the request body is larger than the API accepts. */
  public static ApiProblem tooLarge(int maxBytes) {
    return new ApiProblem(
        413,
        "payload-too-large",
        "Payload too large",
        "The request body must be at most " + maxBytes + " bytes.",
        List.of(new FieldError(null, "must be at most " + maxBytes + " bytes")));
  }

  public static ApiProblem notFound(String detail) {
    return new ApiProblem(404, "not-found", "Not found", detail, List.of());
  }

  public static ApiProblem conflict(String slug, String title, String detail) {
    return new ApiProblem(409, slug, title, detail, List.of());
  }

  /**
   * 503: a dependency (Temporal, DynamoDB) did not answer in time; the same request may be retried.
   */
  public static ApiProblem unavailable(String detail) {
    return new ApiProblem(
        503, "service-unavailable", "Service temporarily unavailable", detail, List.of());
  }

  public Problem toProblem() {
    return new Problem(Problem.TYPE_BASE + slug, title, status, getMessage(), errors);
  }

  public int status() {
    return status;
  }

  public List<FieldError> errors() {
    return errors;
  }
}
