package dev.billing.api.errors;

import com.fasterxml.jackson.core.JsonParseException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.util.List;

/** The body is not JSON at all (syntax error, truncated document). */
public final class MalformedJsonMapper implements ExceptionMapper<JsonParseException> {
  @Override
  public Response toResponse(JsonParseException e) {
    // The parser's message quotes the input; the location is enough to find the mistake.
    var location = e.getLocation();
    String where = location == null ? ""
        : " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
    return ProblemResponses.of(new Problem(Problem.TYPE_BASE + "malformed-json",
        "The request body is not valid JSON", 400, "The request body is not valid JSON" + where + ".",
        List.of(new FieldError(null, "must be a valid JSON document"))));
  }
}
