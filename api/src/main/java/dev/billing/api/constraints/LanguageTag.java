package dev.billing.api.constraints;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * A BCP 47 tag with a known language ({@link dev.billing.api.subscriptions.Locales}). Absent is
 * valid: the default applies.
 */
@Documented
@Constraint(validatedBy = LanguageTagCheck.class)
@Target(FIELD)
@Retention(RUNTIME)
public @interface LanguageTag {
  String message() default "locale must be a BCP 47 language tag such as \"en-US\" or \"fr-CA\"";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};
}
