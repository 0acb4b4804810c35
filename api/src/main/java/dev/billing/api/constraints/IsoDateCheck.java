package dev.billing.api.constraints;

import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;

/** {@link IsoDate}. */
public final class IsoDateCheck implements ConstraintValidator<IsoDate, String> {
  @Override
  public boolean isValid(String value, ConstraintValidatorContext context) {
    if (value == null) {
      return true;
    }
    try {
      LocalDate.parse(value.strip());
      return true;
    } catch (DateTimeParseException e) {
      return false;
    }
  }
}
