package dev.billing.api.errors;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The one error body of the API (RFC 9457 problem details, served as application/problem+json).
 * {@code errors} is always present, empty when no single input is to blame.
 */
public record Problem(
    String type, String title, int status, String detail, List<FieldError> errors) {

  public static final String TYPE_BASE = "https://billing.dev/problems/";
  private static final Pattern NOT_SLUG = Pattern.compile("[^a-z0-9]+");
  private static final Pattern EDGE_DASH = Pattern.compile("^-|-$");

  public Problem {
    errors = errors == null ? List.of() : List.copyOf(errors);
  }

  /**
   * The type of an HTTP status answered as such: "Method Not Allowed" is .../method-not-allowed.
   */
  static String typeOf(String reason) {
    String dashed = NOT_SLUG.matcher(reason.toLowerCase(Locale.ROOT)).replaceAll("-");
    return TYPE_BASE + EDGE_DASH.matcher(dashed).replaceAll("");
  }
}
