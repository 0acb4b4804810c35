package dev.billing.api.constraints;

import dev.billing.domain.Money;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;

/** {@link CurrencyCode}, with Money's reason ("currency XAU has no minor unit ..."). */
public final class CurrencyCodeCheck implements ConstraintValidator<CurrencyCode, String> {
  @Override
  public boolean isValid(String value, ConstraintValidatorContext context) {
    if (value == null || value.isBlank()) {
      return true;
    }
    try {
      Money.fractionDigits(value.strip());
      return true;
    } catch (IllegalArgumentException e) {
      return Messages.refuse(context, e.getMessage());
    }
  }
}
