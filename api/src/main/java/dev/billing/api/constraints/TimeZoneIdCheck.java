package dev.billing.api.constraints;

import dev.billing.domain.BillingSchedule;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;

/** {@link TimeZoneId}, with BillingSchedule's reason. */
public final class TimeZoneIdCheck implements ConstraintValidator<TimeZoneId, String> {
  @Override
  public boolean isValid(String value, ConstraintValidatorContext context) {
    if (value == null) {
      return true;
    }
    try {
      BillingSchedule.zoneOf(value.strip());
      return true;
    } catch (IllegalArgumentException e) {
      return Messages.refuse(context, e.getMessage());
    }
  }
}
