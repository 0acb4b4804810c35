package dev.billing.api.constraints;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * An ISO 4217 code with minor units (Money bills in them), stripped. Absent or blank is {@link
 * Required}'s to judge.
 */
@Documented
@Constraint(validatedBy = CurrencyCodeCheck.class)
@Target(FIELD)
@Retention(RUNTIME)
public @interface CurrencyCode {
  String message() default "currency must be an ISO 4217 code such as \"USD\"";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};
}
