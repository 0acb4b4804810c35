package dev.billing.api.constraints;

import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import java.util.regex.Pattern;

/** {@link Sku}. */
public final class SkuCheck implements ConstraintValidator<Sku, String> {
  public static final Pattern SKU = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  @Override
  public boolean isValid(String value, ConstraintValidatorContext context) {
    return value == null || value.isBlank() || SKU.matcher(value.strip()).matches();
  }
}
