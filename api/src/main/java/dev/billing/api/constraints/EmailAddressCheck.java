package dev.billing.api.constraints;

import dev.billing.api.subscriptions.EmailAddresses;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;

/** {@link EmailAddress}, with the reason EmailAddresses gives. */
public final class EmailAddressCheck implements ConstraintValidator<EmailAddress, String> {
  @Override
  public boolean isValid(String value, ConstraintValidatorContext context) {
    if (value == null || value.isBlank()) {
      return true;
    }
    String problem = EmailAddresses.problem(value.strip());
    return problem == null || Messages.refuse(context, problem);
  }
}
