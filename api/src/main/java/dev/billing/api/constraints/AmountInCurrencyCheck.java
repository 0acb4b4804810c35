package dev.billing.api.constraints;

import dev.billing.domain.Money;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;

/**
 * {@link AmountInCurrency}: the one rule of a request that reads two fields (the currency sets how
 * many decimals the amount may have), reported on {@code amount} with Money's reason.
 */
public final class AmountInCurrencyCheck
    implements ConstraintValidator<AmountInCurrency, PricedRequest> {
  @Override
  public boolean isValid(PricedRequest request, ConstraintValidatorContext context) {
    if (request == null
        || request.amount() == null
        || request.amount().isBlank()
        || request.currency() == null
        || request.currency().isBlank()) {
      return true;
    }
    String currency = request.currency().strip();
    try {
      Money.fractionDigits(currency);
    } catch (IllegalArgumentException e) {
      return true;
    }
    String message;
    try {
      message =
          Money.parse(request.amount().strip(), currency).greaterThanZero()
              ? null
              : "amount must be greater than zero";
    } catch (IllegalArgumentException e) {
      message = e.getMessage();
    }
    if (message == null) {
      return true;
    }
    context.disableDefaultConstraintViolation();
    context
        .buildConstraintViolationWithTemplate(Messages.literal(message))
        .addPropertyNode("amount")
        .addConstraintViolation();
    return false;
  }
}
