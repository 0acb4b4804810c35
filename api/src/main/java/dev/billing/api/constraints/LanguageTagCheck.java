package dev.billing.api.constraints;

import dev.billing.api.subscriptions.Locales;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;

/** {@link LanguageTag}. */
public final class LanguageTagCheck implements ConstraintValidator<LanguageTag, String> {
  @Override
  public boolean isValid(String value, ConstraintValidatorContext context) {
    return value == null || Locales.canonical(value) != null;
  }
}
