package dev.billing.api.errors;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.util.List;

/** The body is not JSON at all (syntax error, truncated document). */
public final class MalformedJsonMapper implements ExceptionMapper<JsonParseException> {
  @Override
  public Response toResponse(JsonParseException e) {
    return ProblemResponses.of(problem(e.getLocation(), null));
  }

  /**
   * The one answer to a body that is not JSON, whoever parses it.
   *
   * @param location where the parser gave up, or null when it cannot say
   * @param field the field whose value the parser was in, or null for the body as a whole
   */
  public static ApiProblem problem(JsonLocation location, String field) {
    // The parser's message quotes the input; the location is enough to find the mistake.
    String where =
        location == null
            ? ""
            : " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
    return new ApiProblem(
        400,
        "malformed-json",
        "The request body is not valid JSON",
        "The request body is not valid JSON" + where + ".",
        List.of(
            new FieldError(
                field,
                field == null
                    ? "must be a valid JSON document"
                    : field + " is not a valid JSON value")));
  }
}
