package dev.billing.activities.notifications;

import dev.billing.domain.Money;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;

/**
 * The values one message's templates see, already written for its reader (formatted amounts and
 * dates). Absent values stay out of the map, so a template's {@code {{#name}}} section is skipped.
 */
final class MessageModel {
  /** What a message says when the payment method has no display mask. */
  static final String UNNAMED_METHOD = "your payment method on file";

  private final MessageFormats formats;
  private final Map<String, Object> values = new HashMap<>();

  MessageModel(MessageFormats formats) {
    this.formats = formats;
    values.put("lang", formats.locale().toLanguageTag());
  }

  MessageModel text(String name, String value) {
    if (value != null && !value.isBlank()) {
      values.put(name, value.strip());
    }
    return this;
  }

  MessageModel money(String name, Money amount) {
    if (amount != null) {
      values.put(name, formats.money(amount));
    }
    return this;
  }

  MessageModel date(String name, LocalDate date) {
    if (date != null) {
      values.put(name, formats.date(date));
    }
    return this;
  }

  MessageModel date(String name, Instant instant) {
    if (instant != null) {
      values.put(name, formats.date(instant));
    }
    return this;
  }

  MessageModel paymentMethod(String mask) {
    return text("paymentMethod", mask == null || mask.isBlank() ? UNNAMED_METHOD : mask);
  }

  Map<String, Object> values() {
    return Map.copyOf(values);
  }
}
