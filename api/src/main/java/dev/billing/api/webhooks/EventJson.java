package dev.billing.api.webhooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.billing.store.events.StoredEvent;
import java.io.IOException;
import java.time.Instant;
import java.util.Map;
import java.util.regex.Pattern;

/** Reading provider JSON: absent and null are the same, and a wrong shape is the provider's 400. */
final class EventJson {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A whole number that fits a long whatever its digits. */
  private static final Pattern DIGITS = Pattern.compile("[0-9]{1,18}");

  /**
   * Decline messages are a sentence or two; the summary is for people, not a copy of the payload.
   */
  static final int MAX_MESSAGE = 300;

  private EventJson() {}

  static JsonNode read(byte[] body) {
    try {
      JsonNode root = JSON.readTree(body);
      if (root == null || !root.isObject()) {
        throw new WebhookPayloadException("the body is not a JSON object");
      }
      return root;
    } catch (IOException e) {
      throw new WebhookPayloadException("the body is not JSON");
    }
  }

  /** A string field; null when absent or null; a number is accepted as its text. */
  static String text(JsonNode node, String field) {
    JsonNode value = node.path(field);
    if (value.isTextual() || value.isNumber() || value.isBoolean()) {
      String text = value.asText();
      return text.isEmpty() ? null : text;
    }
    return null;
  }

  static String required(JsonNode node, String field) {
    String value = text(node, field);
    if (value == null) {
      throw new WebhookPayloadException("the event has no " + field);
    }
    return value;
  }

  /** The event's "created", Unix seconds. */
  static Instant created(JsonNode event) {
    JsonNode created = event.path("created");
    if (!created.canConvertToLong() || created.asLong() < 0) {
      throw new WebhookPayloadException("the event has no created time (Unix seconds)");
    }
    return Instant.ofEpochSecond(created.asLong());
  }

  /** A non-negative whole number given as a JSON number or a decimal string; null otherwise. */
  static Long wholeNumber(JsonNode node, String field) {
    JsonNode value = node.path(field);
    if (value.isIntegralNumber() && value.canConvertToLong()) {
      return value.asLong() >= 0 ? value.asLong() : null;
    }
    if (value.isTextual() && DIGITS.matcher(value.asText()).matches()) {
      return Long.parseLong(value.asText());
    }
    return null;
  }

  /** Puts a provider's free text into a summary: shortened, and never a card number. */
  static void putMessage(Map<String, String> summary, String name, String text) {
    if (text != null) {
      String redacted = StoredEvent.redactCardNumbers(text);
      summary.put(
          name,
          redacted.length() <= MAX_MESSAGE
              ? redacted
              : redacted.substring(0, MAX_MESSAGE - 1) + "…");
    }
  }

  /** Puts a short provider value (code, currency, id) into a summary, if present. */
  static void put(Map<String, String> summary, String name, String value) {
    if (value != null) {
      putMessage(summary, name, value);
    }
  }
}
