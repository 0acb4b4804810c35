package dev.billing.api.constraints;

import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import java.util.List;

/** {@link OneOf}. */
public final class OneOfCheck implements ConstraintValidator<OneOf, String> {
  private List<String> words;

  @Override
  public void initialize(OneOf oneOf) {
    words = List.of(oneOf.value());
  }

  @Override
  public boolean isValid(String value, ConstraintValidatorContext context) {
    return value == null || value.isBlank() || words.contains(value.strip());
  }
}
