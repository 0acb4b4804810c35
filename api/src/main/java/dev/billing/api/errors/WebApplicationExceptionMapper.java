package dev.billing.api.errors;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.util.List;

/**
 * Jersey's own answers (unknown route 404, 405, 406, 415, ...): same status, problem shape. Headers
 * such as {@code Allow} are kept.
 */
public final class WebApplicationExceptionMapper
    implements ExceptionMapper<WebApplicationException> {
  @Override
  public Response toResponse(WebApplicationException e) {
    Response original = e.getResponse();
    int status = original.getStatus();
    if (status >= 500) {
      return new UnexpectedExceptionMapper().toResponse(e);
    }
    Response.StatusType type = original.getStatusInfo();
    String reason = type.getReasonPhrase() == null ? "HTTP " + status : type.getReasonPhrase();
    Response.ResponseBuilder builder =
        ProblemResponses.builder(
            new Problem(Problem.typeOf(reason), reason, status, detail(status, reason), List.of()));
    original
        .getHeaders()
        .forEach(
            (name, values) -> {
              if (!HttpHeaders.CONTENT_TYPE.equalsIgnoreCase(name)
                  && !HttpHeaders.CONTENT_LENGTH.equalsIgnoreCase(name)) {
                values.forEach(value -> builder.header(name, value));
              }
            });
    return builder.build();
  }

  private static String detail(int status, String reason) {
    return switch (status) {
      case 404 -> "There is no resource at this path.";
      case 405 -> "This resource does not support the request method.";
      case 406 -> "This resource answers only with application/json.";
      case 415 -> "The request body must be application/json.";
      default -> reason + ".";
    };
  }
}
