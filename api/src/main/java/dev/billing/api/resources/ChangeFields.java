package dev.billing.api.resources;

import dev.billing.api.errors.ApiProblem;
import dev.billing.domain.Money;
import java.util.regex.Pattern;

/**
 * Checks of the inputs that several change requests share; each failure is a 400 naming the input.
 */
final class ChangeFields {
  private ChangeFields() {}

  static final int MAX_REASON = 500;

  /**
   * A period id is its cycle number: 1, 2, ... (at most ten digits, far beyond any subscription).
   */
  private static final Pattern PERIOD_ID = Pattern.compile("[1-9][0-9]{0,9}");

  /** The stripped reason, null when absent or blank. */
  static String reason(String reason) {
    if (reason == null || reason.isBlank()) {
      return null;
    }
    String stripped = reason.strip();
    if (stripped.length() > MAX_REASON) {
      throw ApiProblem.invalid("reason", "reason must be at most " + MAX_REASON + " characters");
    }
    return stripped;
  }

  static long periodId(String periodId) {
    if (periodId == null || !PERIOD_ID.matcher(periodId).matches()) {
      throw ApiProblem.invalid("periodId", "periodId must be a period's cycle number such as 3");
    }
    return Long.parseLong(periodId);
  }

  /** A positive amount in {@code currency}, with at most its decimals. */
  static Money positiveAmount(String field, String amount, String currency) {
    Money money;
    try {
      money = Money.parse(amount, currency);
    } catch (IllegalArgumentException e) {
      throw ApiProblem.invalid(field, e.getMessage());
    }
    if (!money.greaterThanZero()) {
      throw ApiProblem.invalid(field, field + " must be greater than zero");
    }
    return money;
  }
}
