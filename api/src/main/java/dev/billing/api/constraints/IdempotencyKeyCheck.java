package dev.billing.api.constraints;

import dev.billing.api.resources.IdempotencyKeys;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;

/** {@link IdempotencyKey}. */
public final class IdempotencyKeyCheck implements ConstraintValidator<IdempotencyKey, String> {
  @Override
  public boolean isValid(String value, ConstraintValidatorContext context) {
    return value == null || IdempotencyKeys.isValid(value);
  }
}
