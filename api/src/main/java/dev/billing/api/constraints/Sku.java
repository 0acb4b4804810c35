package dev.billing.api.constraints;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * A plan id, stripped: safe inside DynamoDB sort keys, where '#' separates the parts. Absent or
 * blank is {@link Required}'s to judge.
 */
@Documented
@Constraint(validatedBy = SkuCheck.class)
@Target(FIELD)
@Retention(RUNTIME)
public @interface Sku {
  String message() default "sku must be 1 to 64 letters, digits, '.', '_' or '-'";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};
}
