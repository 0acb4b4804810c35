package dev.billing.api.constraints;

import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;

/**
 * {@link Required}: not null and not blank as {@code String.isBlank} says (@NotBlank trims
 * instead).
 */
public final class RequiredCheck implements ConstraintValidator<Required, String> {
  @Override
  public boolean isValid(String value, ConstraintValidatorContext context) {
    return value != null && !value.isBlank();
  }
}
