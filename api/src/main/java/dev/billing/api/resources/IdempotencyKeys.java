package dev.billing.api.resources;

import dev.billing.api.errors.ApiProblem;
import dev.billing.api.subscriptions.SubscriptionWorkflows;
import java.util.regex.Pattern;

/** The Idempotency-Key header: 1 to 255 printable ASCII characters. */
public final class IdempotencyKeys {
  public static final String HEADER = "Idempotency-Key";
  private static final Pattern KEY = Pattern.compile("[\\x20-\\x7E]{1,255}");

  private IdempotencyKeys() {}

  /**
   * @return the key, or null when the header is absent
   */
  public static String validate(String header) {
    if (header == null) {
      return null;
    }
    if (!isValid(header)) {
      throw ApiProblem.invalid(HEADER, HEADER + " must be 1 to 255 printable ASCII characters");
    }
    return header;
  }

  public static boolean isValid(String header) {
    return KEY.matcher(header).matches() && !header.isBlank();
  }

  /**
   * The id of a change request: the client's key when it sent one, else one generated for this
   * request (a retry without a key is a new request; the 202 and 503 answers name the id to retry
   * with).
   */
  public static String requestId(String header) {
    String key = validate(header);
    return key != null ? key : SubscriptionWorkflows.newRequestId();
  }
}
