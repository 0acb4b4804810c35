package dev.billing.api.constraints;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * One plain mailbox our SMTP server can send to, as {@link
 * dev.billing.api.subscriptions.EmailAddresses} words it; stripped. Absent or blank is {@link
 * Required}'s to judge.
 */
@Documented
@Constraint(validatedBy = EmailAddressCheck.class)
@Target(FIELD)
@Retention(RUNTIME)
public @interface EmailAddress {
  String message() default "email must be an address such as \"ana@example.com\"";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};
}
