package dev.billing.api.constraints;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * An IANA zone id, stripped, as BillingSchedule accepts it (blank is "required"). Absent is valid:
 * the default applies.
 */
@Documented
@Constraint(validatedBy = TimeZoneIdCheck.class)
@Target(FIELD)
@Retention(RUNTIME)
public @interface TimeZoneId {
  String message() default "timeZone must be an IANA zone id such as \"Europe/Paris\"";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};
}
