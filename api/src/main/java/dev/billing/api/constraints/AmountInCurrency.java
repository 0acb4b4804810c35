package dev.billing.api.constraints;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * A request's amount is a positive number of its currency with at most the currency's decimals,
 * reported on the field {@code amount}. Checked only when both are present and the currency is
 * valid: the other constraints report those.
 */
@Documented
@Constraint(validatedBy = AmountInCurrencyCheck.class)
@Target(TYPE)
@Retention(RUNTIME)
public @interface AmountInCurrency {
  String message() default "amount must be greater than zero";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};
}
