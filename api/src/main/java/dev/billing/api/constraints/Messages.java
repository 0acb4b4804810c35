package dev.billing.api.constraints;

import jakarta.validation.ConstraintValidatorContext;

/**
 * Reports a rule's own message (a domain exception's, which may carry input) as the violation's.
 */
final class Messages {
  private Messages() {}

  /** Replaces the constraint's message with {@code message}, taken literally; returns false. */
  static boolean refuse(ConstraintValidatorContext context, String message) {
    context.disableDefaultConstraintViolation();
    context.buildConstraintViolationWithTemplate(literal(message)).addConstraintViolation();
    return false;
  }

  /**
   * The template that interpolates to {@code text}: no parameter or expression is ever evaluated.
   */
  static String literal(String text) {
    StringBuilder template = new StringBuilder(text.length() + 8);
    for (char c : text.toCharArray()) {
      if (c == '\\' || c == '{' || c == '}' || c == '$') {
        template.append('\\');
      }
      template.append(c);
    }
    return template.toString();
  }
}
