package dev.billing.api.errors;

import java.util.List;
import java.util.Locale;

/**
 * The one error body of the API (RFC 9457 problem details, served as application/problem+json).
 * {@code errors} is always present, empty when no single input is to blame.
 */
public record Problem(String type, String title, int status, String detail, List<FieldError> errors) {

  public static final String TYPE_BASE = "https://billing.dev/problems/";

  public Problem {
    errors = errors == null ? List.of() : List.copyOf(errors);
  }

  /** The type of an HTTP status answered as such: "Method Not Allowed" is .../method-not-allowed. */
  static String typeOf(String reason) {
    // A loop rather than two replaceAll calls, which compiled their patterns for every answer.
    StringBuilder slug = new StringBuilder(TYPE_BASE);
    int start = slug.length();
    boolean gap = false;
    for (char c : reason.toLowerCase(Locale.ROOT).toCharArray()) {
      if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
        if (gap && slug.length() > start) {
          slug.append('-');
        }
        slug.append(c);
        gap = false;
      } else {
        gap = true;
      }
    }
    return slug.toString();
  }
}
