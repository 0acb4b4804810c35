package dev.billing.api.constraints;

import dev.billing.api.subscriptions.PaymentMethods;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;

/** {@link PaymentMethodToken}, saying so when the value looks like a card number. */
public final class PaymentMethodTokenCheck
    implements ConstraintValidator<PaymentMethodToken, String> {
  @Override
  public boolean isValid(String value, ConstraintValidatorContext context) {
    if (value == null || value.isBlank()) {
      return true;
    }
    String problem = PaymentMethods.problem("paymentMethod", value.strip());
    return problem == null || Messages.refuse(context, problem);
  }
}
