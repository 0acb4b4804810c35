package dev.billing.api.errors;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

/**
 * Problems the resources raise on purpose (validation, not found, conflicts). A 503 says when to
 * retry, as one from an unavailable dependency does: the problem's own time, or 5 seconds.
 */
public final class ApiProblemMapper implements ExceptionMapper<ApiProblem> {
  @Override
  public Response toResponse(ApiProblem problem) {
    Response.ResponseBuilder response = ProblemResponses.builder(problem.toProblem());
    if (problem.retryAfterSeconds() > 0) {
      response.header("Retry-After", Long.toString(problem.retryAfterSeconds()));
    } else if (problem.status() == 503) {
      response.header("Retry-After", DependencyUnavailableMapper.RETRY_AFTER_SECONDS);
    }
    return response.build();
  }
}
