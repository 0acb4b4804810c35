package dev.billing.api.input;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.billing.api.errors.ApiProblem;
import dev.billing.api.errors.FieldError;
import dev.billing.api.errors.MalformedJsonMapper;
import java.io.CharConversionException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What every JSON request body must satisfy, whatever the endpoint, checked in one streaming pass
 * before Jackson binds it to the request type (which then checks unknown fields and types): no
 * field twice, no nulls (leave a field out instead), no nesting deeper than {@link #MAX_DEPTH}, no
 * string longer than {@link #MAX_STRING}, and no card number or IBAN in any value or name.
 * Jackson's own read constraints are met here too ({@link JsonReadLimits}). Errors name the field
 * by its path ("items[2].sku") and never echo the value.
 */
final class JsonBodyCheck {
  static final int MAX_DEPTH = 16;
  static final int MAX_STRING = 4096;
  private static final int MAX_ERRORS = 10;

  private JsonBodyCheck() {}

  /**
   * @throws ApiProblem 400 naming the offending fields, or the malformed-JSON problem for a body
   *     that is not JSON
   */
  static void check(JsonFactory factory, byte[] body) throws IOException {
    List<FieldError> errors = new ArrayList<>();
    JsonParser parser = factory.createParser(body);
    try {
      parser.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
      JsonToken token;
      // Paths are built for errors only, not for every token: each one is a string built and then
      // scanned for card numbers.
      while ((token = parser.nextToken()) != null && errors.size() < MAX_ERRORS) {
        switch (token) {
          case START_OBJECT, START_ARRAY -> {
            if (parser.getParsingContext().getNestingDepth() > MAX_DEPTH) {
              throw ApiProblem.invalid(
                  List.of(
                      error(parser, token, " is nested more than " + MAX_DEPTH + " levels deep")));
            }
          }
          case FIELD_NAME -> {
            if (SensitiveNumbers.containsPaymentNumber(parser.currentName())) {
              // At once: every later error's path would repeat the name.
              throw ApiProblem.invalid(
                  null, "a field name must never carry a card or bank account number");
            }
          }
          case VALUE_NULL -> {
            String path = path(parser.getParsingContext(), token);
            // A body of just `null` is no body: the resource says whether it needs one.
            if (path != null) {
              errors.add(
                  new FieldError(
                      path, path + " must not be null; leave it out to use its default"));
            }
          }
          case VALUE_STRING -> {
            String text = parser.getText();
            if (text.length() > MAX_STRING) {
              errors.add(error(parser, token, " must be at most " + MAX_STRING + " characters"));
            } else if (SensitiveNumbers.containsPaymentNumber(text)) {
              errors.add(
                  error(
                      parser,
                      token,
                      " must never carry a card or bank account number; send a"
                          + " payment method token such as \"pm_card_visa\""));
            }
          }
          case VALUE_NUMBER_INT -> {
            if (SensitiveNumbers.containsCardNumber(parser.getText())) {
              errors.add(
                  error(
                      parser,
                      token,
                      " must never carry a card number; send a payment method"
                          + " token such as \"pm_card_visa\""));
            }
          }
          default -> {}
        }
      }
    } catch (JsonParseException e) {
      String duplicate = duplicateField(e);
      if (duplicate != null) {
        throw ApiProblem.invalid(duplicate, duplicate + " appears more than once");
      }
      throw malformed(e);
    } catch (StreamConstraintsException e) {
      throw JsonReadLimits.problem(e, parser.getParsingContext(), factory.streamReadConstraints());
    } catch (CharConversionException e) {
      // Bytes Jackson's UTF-32 reader cannot decode: not JSON, though not a JsonParseException.
      throw MalformedJsonMapper.problem(null, null);
    } finally {
      parser.close();
    }
    if (!errors.isEmpty()) {
      throw ApiProblem.invalid(errors);
    }
  }

  /** Not JSON: as the malformed-JSON mapper says it, naming the field whose value it was in. */
  private static ApiProblem malformed(JsonParseException e) {
    String field = null;
    JsonParser parser = e.getProcessor();
    if (parser != null && parser.getParsingContext() != null) {
      field = path(parser.getParsingContext(), JsonToken.VALUE_STRING);
    }
    return MalformedJsonMapper.problem(e.getLocation(), field);
  }

  /** An error about the value just read, named by its path. */
  private static FieldError error(JsonParser parser, JsonToken token, String problem) {
    String path = path(parser.getParsingContext(), token);
    return new FieldError(path, name(path) + problem);
  }

  static String name(String path) {
    return path == null ? "the request body" : path;
  }

  /** The path of the value just read: "sku", "items[2].sku"; null for the body itself. */
  static String path(JsonStreamContext context, JsonToken token) {
    // The context of START_OBJECT/START_ARRAY is the one they open; the value sits in its parent.
    JsonStreamContext at =
        token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY
            ? context.getParent()
            : context;
    List<String> parts = new ArrayList<>();
    for (JsonStreamContext c = at; c != null && !c.inRoot(); c = c.getParent()) {
      if (c.inObject()) {
        parts.add(0, c.getCurrentName() == null ? "" : "." + c.getCurrentName());
      } else if (c.inArray()) {
        parts.add(0, "[" + Math.max(c.getCurrentIndex(), 0) + "]");
      }
    }
    String joined = String.join("", parts);
    // Empty when nothing in the object is named yet ("{x"): the body, not a field called "".
    if (joined.isEmpty()) {
      return null;
    }
    // A field named with a card number is not named back: the name would echo the number.
    return SensitiveNumbers.containsPaymentNumber(joined)
        ? null
        : joined.startsWith(".") ? joined.substring(1) : joined;
  }

  /** The field a STRICT_DUPLICATE_DETECTION failure is about, or null for other syntax errors. */
  private static String duplicateField(JsonParseException e) {
    JsonParser parser = e.getProcessor();
    if (parser == null
        || e.getOriginalMessage() == null
        || !e.getOriginalMessage().startsWith("Duplicate field")) {
      return null;
    }
    return path(parser.getParsingContext(), JsonToken.FIELD_NAME);
  }
}
