package dev.billing.api.errors;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

/**
 * JSON that is well-formed but that Jackson refuses for its limits rather than its syntax or shape:
 * a number out of its type's range, a number or string beyond Jackson's read constraints. (Syntax
 * and shape have their own mappers, which Jersey prefers for their narrower types.) Never echoes
 * the value.
 */
public final class JsonLimitsMapper implements ExceptionMapper<JsonProcessingException> {
  @Override
  public Response toResponse(JsonProcessingException e) {
    String field = null;
    if (e.getProcessor() instanceof JsonParser parser) {
      try {
        field = parser.currentName();
      } catch (java.io.IOException | RuntimeException unreadable) {
        // The parser is in no state to say where it was; the body as a whole is named.
      }
    }
    String message =
        e instanceof InputCoercionException
            ? (field == null ? "a number" : field) + " is out of range"
            : (field == null ? "the request body" : field) + " exceeds the JSON limits of this API";
    return ProblemResponses.invalid(field, message);
  }
}
