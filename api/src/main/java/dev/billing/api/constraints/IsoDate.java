package dev.billing.api.constraints;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/** An ISO date (2026-01-31), stripped. Absent is valid. */
@Documented
@Constraint(validatedBy = IsoDateCheck.class)
@Target(FIELD)
@Retention(RUNTIME)
public @interface IsoDate {
  String message() default "must be a date such as \"2026-01-31\"";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};
}
