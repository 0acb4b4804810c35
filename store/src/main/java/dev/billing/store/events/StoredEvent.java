package dev.billing.store.events;

import dev.billing.domain.PaymentEvent;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One gateway event as the webhook accepted it: what the replay poller and reconciliation need to
 * know, never the raw payload.
 *
 * @param provider "stripe", "sandbox": event ids are unique per provider only
 * @param eventId the provider's event id
 * @param type the provider's own event type, e.g. "payment_intent.succeeded"
 * @param paymentEventType what the event means to billing, the type it is signalled as (when it
 *     names a subscription); null when its type means nothing to billing
 * @param subscriptionId from the charge's metadata; null when the charge is not ours (or the event
 *     is about no charge)
 * @param cycle from the charge's metadata; null when unknown
 * @param idempotencyKey the charge attempt's key, from its metadata; null when unknown
 * @param transactionId the gateway's id of the charge (Stripe: the PaymentIntent); null when none
 * @param occurredAt when the provider created the event: it dates the event and its expiry
 * @param receivedAt when this API first accepted it
 * @param summary a few display values (amount, currency, failure code...); never card data
 */
public record StoredEvent(
    String provider,
    String eventId,
    String type,
    PaymentEvent.Type paymentEventType,
    String subscriptionId,
    Long cycle,
    String idempotencyKey,
    String transactionId,
    Instant occurredAt,
    Instant receivedAt,
    Map<String, String> summary) {

  static final Pattern PROVIDER = Pattern.compile("[a-z][a-z0-9_-]{0,31}");
  static final int MAX_ID_LENGTH = 255;
  static final int MAX_SUMMARY_ENTRIES = 16;
  static final int MAX_SUMMARY_VALUE = 500;
  private static final Pattern SUMMARY_KEY = Pattern.compile("[a-zA-Z][a-zA-Z0-9]{0,39}");

  /**
   * 13 to 19 digits, optionally grouped by spaces or dashes: the shape of a card number. A summary
   * value of that shape is refused rather than stored (PCI DSS keeps PANs out of this table).
   */
  private static final Pattern CARD_NUMBER = Pattern.compile("(?:\\d[ -]?){12,18}\\d");

  public StoredEvent {
    if (provider == null || !PROVIDER.matcher(provider).matches()) {
      throw new IllegalArgumentException(
          "provider must be 1 to 32 of a-z, 0-9, '_', '-': " + provider);
    }
    eventId = required("eventId", eventId);
    type = required("type", type);
    subscriptionId = optional("subscriptionId", subscriptionId);
    idempotencyKey = optional("idempotencyKey", idempotencyKey);
    transactionId = optional("transactionId", transactionId);
    if (cycle != null && cycle < 0) {
      throw new IllegalArgumentException("cycle must not be negative: " + cycle);
    }
    Objects.requireNonNull(occurredAt, "occurredAt");
    Objects.requireNonNull(receivedAt, "receivedAt");
    summary = Map.copyOf(Objects.requireNonNull(summary, "summary"));
    if (summary.size() > MAX_SUMMARY_ENTRIES) {
      throw new IllegalArgumentException(
          "summary has "
              + summary.size()
              + " entries, at most "
              + MAX_SUMMARY_ENTRIES
              + " are kept");
    }
    summary.forEach(
        (key, value) -> {
          if (!SUMMARY_KEY.matcher(key).matches()) {
            throw new IllegalArgumentException("summary key must be a short identifier: " + key);
          }
          if (value.length() > MAX_SUMMARY_VALUE) {
            throw new IllegalArgumentException(
                "summary value of " + key + " is longer than " + MAX_SUMMARY_VALUE + " characters");
          }
          if (CARD_NUMBER.matcher(value).find()) {
            throw new IllegalArgumentException(
                "summary value of " + key + " looks like a card number");
          }
        });
  }

  /**
   * The text with every run of digits shaped like a card number replaced by "[redacted]": for free
   * text from a provider (a decline message) that is to go into the summary.
   */
  public static String redactCardNumbers(String text) {
    return text == null ? null : CARD_NUMBER.matcher(text).replaceAll("[redacted]");
  }

  /** Empty strings become null: DynamoDB keys (the GSIs') cannot be empty, and "" means unknown. */
  private static String optional(String what, String value) {
    if (value == null || value.isEmpty()) {
      return null;
    }
    if (value.length() > MAX_ID_LENGTH) {
      throw new IllegalArgumentException(what + " is longer than " + MAX_ID_LENGTH + " characters");
    }
    return value;
  }

  private static String required(String what, String value) {
    String checked = optional(what, value);
    if (checked == null) {
      throw new IllegalArgumentException(what + " is required");
    }
    return checked;
  }
}
