package dev.billing.api.resources;

import dev.billing.api.errors.ApiProblem;
import java.util.regex.Pattern;

/**
 * The one pattern for ids in paths (accounts and subscriptions): 1 to 64 letters, digits, '_' or
 * '-'. It keeps ids safe inside DynamoDB keys ('#' separates key parts) and Temporal workflow ids.
 */
public final class PathIds {
  public static final String PATTERN = "^[A-Za-z0-9_-]{1,64}$";
  private static final Pattern ID = Pattern.compile(PATTERN);

  private PathIds() {}

  public static boolean isValid(String value) {
    return value != null && ID.matcher(value).matches();
  }

  /**
   * @throws ApiProblem 400 naming the parameter
   */
  public static String require(String name, String value) {
    if (!isValid(value)) {
      throw ApiProblem.invalid(name, name + " must match " + PATTERN);
    }
    return value;
  }
}
