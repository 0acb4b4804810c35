package dev.billing.api.constraints;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * Present and not blank as {@link String#isBlank} says (an em space is blank; a control character
 * is not).
 */
@Documented
@Constraint(validatedBy = RequiredCheck.class)
@Target(FIELD)
@Retention(RUNTIME)
public @interface Required {
  String message() default "a value is required";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};
}
