package dev.billing.api.input;

import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.billing.api.errors.ApiProblem;

/**
 * A body over one of Jackson's own read constraints, met by {@link JsonBodyCheck} while it reads: a
 * 400 saying which limit, naming where the parser was. Within the body limit only the name and the
 * number lengths can be met (the body check's own string and depth limits are lower than
 * Jackson's), but a factory may be configured lower.
 */
final class JsonReadLimits {
  private static final String EXCEEDS = " exceeds the JSON limits: ";

  private JsonReadLimits() {}

  /**
   * @param context the parser's context when it threw: the exception itself carries no parser
   */
  static ApiProblem problem(
      StreamConstraintsException e, JsonStreamContext context, StreamReadConstraints limits) {
    // One exception type for every limit; only its message tells them apart. The message is not
    // passed on: it names Jackson's settings, which mean nothing to a client.
    String message = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
    if (message.startsWith("Name length")) {
      // Thrown before the name enters the context, whose current name may be the previous field's.
      String object = JsonBodyCheck.path(context, JsonToken.START_OBJECT);
      return ApiProblem.invalid(
          object,
          "a field name in "
              + JsonBodyCheck.name(object)
              + EXCEEDS
              + "field names of at most "
              + limits.getMaxNameLength()
              + " characters");
    }
    if (message.startsWith("Number value length")) {
      return invalid(
          context,
          JsonToken.VALUE_NUMBER_INT,
          "numbers of at most " + limits.getMaxNumberLength() + " digits");
    }
    if (message.startsWith("String value length")) {
      return invalid(
          context,
          JsonToken.VALUE_STRING,
          "strings of at most " + limits.getMaxStringLength() + " characters");
    }
    if (message.startsWith("Document nesting depth")) {
      // Thrown once the too-deep object or array has opened its own context.
      return invalid(
          context,
          JsonToken.START_OBJECT,
          "nesting of at most " + limits.getMaxNestingDepth() + " levels");
    }
    return ApiProblem.invalid(null, "the request body exceeds the JSON limits of this API");
  }

  private static ApiProblem invalid(JsonStreamContext context, JsonToken token, String limit) {
    String path = JsonBodyCheck.path(context, token);
    return ApiProblem.invalid(path, JsonBodyCheck.name(path) + EXCEEDS + limit);
  }
}
