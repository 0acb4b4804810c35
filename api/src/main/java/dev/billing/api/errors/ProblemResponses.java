package dev.billing.api.errors;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;

/** Builds every error response, so they all share one shape and one content type. */
public final class ProblemResponses {
  public static final String PROBLEM_JSON = "application/problem+json";
  public static final MediaType PROBLEM_JSON_TYPE = MediaType.valueOf(PROBLEM_JSON);

  private ProblemResponses() {}

  public static Response of(Problem problem) {
    return builder(problem).build();
  }

  public static Response.ResponseBuilder builder(Problem problem) {
    return Response.status(problem.status()).type(PROBLEM_JSON_TYPE).entity(problem);
  }

  public static Response of(ApiProblem problem) {
    return of(problem.toProblem());
  }

  /** A 400 naming one input. */
  public static Response invalid(String field, String message) {
    return of(ApiProblem.invalid(List.of(new FieldError(field, message))));
  }
}
