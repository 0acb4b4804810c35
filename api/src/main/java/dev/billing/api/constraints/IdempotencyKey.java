package dev.billing.api.constraints;

import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * The Idempotency-Key header ({@link dev.billing.api.resources.IdempotencyKeys}). Absent is valid.
 */
@Documented
@Constraint(validatedBy = IdempotencyKeyCheck.class)
@Target(PARAMETER)
@Retention(RUNTIME)
public @interface IdempotencyKey {
  String message() default "Idempotency-Key must be 1 to 255 printable ASCII characters";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};
}
