package dev.billing.api.errors;

import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidDefinitionException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Well-formed JSON that does not fit the request: an unknown field, a value of the wrong type.
 * Names the field by its path; never echoes the value (it may be a card number sent by mistake).
 */
public final class JsonFieldMapper implements ExceptionMapper<JsonMappingException> {
  private static final Logger LOG = LoggerFactory.getLogger(JsonFieldMapper.class);

  @Override
  public Response toResponse(JsonMappingException e) {
    if (e instanceof InvalidDefinitionException) {
      // A type the API cannot (de)serialize is our bug, not the client's.
      return new UnexpectedExceptionMapper().toResponse(e);
    }
    String field = FieldPaths.of(e);
    String message;
    if (e instanceof UnrecognizedPropertyException unknown) {
      if (field == null) {
        field = unknown.getPropertyName();
      }
      List<String> allowed =
          unknown.getKnownPropertyIds() == null
              ? List.of()
              : unknown.getKnownPropertyIds().stream().map(String::valueOf).sorted().toList();
      message =
          field + " is not a field of this request; allowed fields: " + String.join(", ", allowed);
    } else if (field == null) {
      // Also a body with trailing content after the object ("{} {}").
      message = "the request body must be one JSON object";
    } else if (e.getCause() instanceof InputCoercionException) {
      // A number too large for its type: "billingDay": 99999999999999999999.
      message = field + " is out of range for " + describeCause(e);
    } else if (e instanceof MismatchedInputException mismatch) {
      message = field + " must be " + describe(mismatch.getTargetType());
    } else {
      LOG.debug("request body rejected", e);
      message = field + " does not have the expected shape";
    }
    return ProblemResponses.of(ApiProblem.invalid(List.of(new FieldError(field, message))));
  }

  private static String describeCause(JsonMappingException e) {
    Class<?> target = ((InputCoercionException) e.getCause()).getTargetType();
    return target == null ? "its type" : describe(target);
  }

  private static String describe(Class<?> type) {
    if (type == null) {
      return "a value of another type";
    }
    if (type == String.class) {
      return "a string";
    }
    if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
      return "an integer";
    }
    if (type == Boolean.class || type == boolean.class) {
      return "true or false";
    }
    if (type.isRecord()) {
      return "a JSON object";
    }
    return "a value of type " + type.getSimpleName();
  }
}
