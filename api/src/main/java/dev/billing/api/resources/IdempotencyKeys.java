package dev.billing.api.resources;

import dev.billing.api.errors.ApiProblem;
import java.util.regex.Pattern;

/** The Idempotency-Key header: 1 to 255 printable ASCII characters. */
public final class IdempotencyKeys {
  public static final String HEADER = "Idempotency-Key";
  private static final Pattern KEY = Pattern.compile("[\\x20-\\x7E]{1,255}");

  private IdempotencyKeys() {}

  /** @return the key, or null when the header is absent */
  public static String validate(String header) {
    if (header == null) {
      return null;
    }
    if (!KEY.matcher(header).matches() || header.isBlank()) {
      throw ApiProblem.invalid(HEADER, HEADER + " must be 1 to 255 printable ASCII characters");
    }
    return header;
  }
}
