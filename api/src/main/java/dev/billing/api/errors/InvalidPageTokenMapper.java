package dev.billing.api.errors;

import dev.billing.store.InvalidPageTokenException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

/** A page token this API did not issue for this query (altered, forged, or from another list). */
public final class InvalidPageTokenMapper implements ExceptionMapper<InvalidPageTokenException> {
  @Override
  public Response toResponse(InvalidPageTokenException e) {
    return ProblemResponses.invalid(
        "pageToken",
        "pageToken is not a token this API issued for this list; start again without it");
  }
}
