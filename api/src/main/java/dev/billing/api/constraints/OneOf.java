package dev.billing.api.constraints;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * One of a few words, compared stripped and case-sensitively. Absent or blank is {@link Required}'s
 * to judge.
 */
@Documented
@Constraint(validatedBy = OneOfCheck.class)
@Target(FIELD)
@Retention(RUNTIME)
public @interface OneOf {
  String[] value();

  String message();

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};
}
