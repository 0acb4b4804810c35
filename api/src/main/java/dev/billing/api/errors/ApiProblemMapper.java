package dev.billing.api.errors;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

/** Problems the resources raise on purpose (validation, not found, conflicts). */
public final class ApiProblemMapper implements ExceptionMapper<ApiProblem> {
  @Override
  public Response toResponse(ApiProblem problem) {
    return ProblemResponses.of(problem);
  }
}
