package dev.billing.api.constraints;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * A gateway token, never card data ({@link dev.billing.api.subscriptions.PaymentMethods});
 * stripped. Absent or blank is {@link Required}'s to judge.
 */
@Documented
@Constraint(validatedBy = PaymentMethodTokenCheck.class)
@Target(FIELD)
@Retention(RUNTIME)
public @interface PaymentMethodToken {
  String message() default "paymentMethod must be a payment method token such as \"pm_card_visa\"";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};
}
