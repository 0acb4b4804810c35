package dev.billing.api.constraints;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import jakarta.validation.ReportAsSingleViolation;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * A day of the month to bill on, 1 to 31 (BillingSchedule clamps 29 to 31 to shorter months' last
 * day). Absent is valid: whether the day is required is the request's to say.
 */
@Documented
@Min(1)
@Max(31)
@ReportAsSingleViolation
@Constraint(validatedBy = {})
@Target({FIELD, PARAMETER})
@Retention(RUNTIME)
public @interface BillingDay {
  String message() default "billingDay must be between 1 and 31";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};
}
