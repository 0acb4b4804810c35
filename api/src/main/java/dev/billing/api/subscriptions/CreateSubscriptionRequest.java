package dev.billing.api.subscriptions;

import dev.billing.api.constraints.AmountInCurrency;
import dev.billing.api.constraints.BillingDay;
import dev.billing.api.constraints.CurrencyCode;
import dev.billing.api.constraints.EmailAddress;
import dev.billing.api.constraints.IsoDate;
import dev.billing.api.constraints.LanguageTag;
import dev.billing.api.constraints.PaymentMethodToken;
import dev.billing.api.constraints.PricedRequest;
import dev.billing.api.constraints.ReportedInOrder;
import dev.billing.api.constraints.Required;
import dev.billing.api.constraints.Sku;
import dev.billing.api.constraints.TimeZoneId;
import dev.billing.domain.BillingSchedule;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;

/**
 * The body of POST /v1/accounts/{accountId}/subscriptions, exactly as sent. Every field is a
 * nullable wrapper so that "absent" can take its default; the constraints say what else is refused,
 * each with its field-level message (the resource takes the body {@code @Valid}), and {@link
 * CreateSubscriptionValidator} applies the defaults. Amounts and dates are strings on purpose: an
 * amount is never a binary floating-point number. Its errors come in the order {@link
 * ReportedInOrder} gives, the answer's documented order, not the order of the components.
 */
@AmountInCurrency
@ReportedInOrder({
  "sku",
  "currency",
  "amount",
  "email",
  "paymentMethod",
  "term",
  "timeZone",
  "reminderDaysBefore",
  "billingDay",
  "startDate",
  "trialDays",
  "locale"
})
public record CreateSubscriptionRequest(
    @Required(message = "sku is required") @Sku String sku,
    @Required(message = "amount is required") String amount,
    @Required(message = "currency is required") @CurrencyCode String currency,
    @Required(message = "email is required") @EmailAddress String email,
    @Required(message = "paymentMethod is required") @PaymentMethodToken String paymentMethod,
    @Pattern(regexp = "MONTHLY|YEARLY", message = "term must be MONTHLY or YEARLY") String term,
    @BillingDay Integer billingDay,
    @IsoDate(message = "startDate must be a date such as \"2026-01-31\"") String startDate,
    @TimeZoneId String timeZone,
    @Min(value = 0, message = REMINDER_DAYS)
        @Max(value = BillingSchedule.MAX_REMINDER_DAYS, message = REMINDER_DAYS)
        Integer reminderDaysBefore,
    @Min(value = 0, message = TRIAL_DAYS)
        @Max(value = CreateSubscriptionValidator.MAX_TRIAL_DAYS, message = TRIAL_DAYS)
        Integer trialDays,
    @LanguageTag String locale)
    implements PricedRequest {

  static final String REMINDER_DAYS =
      "reminderDaysBefore must be between 0 and " + BillingSchedule.MAX_REMINDER_DAYS;
  static final String TRIAL_DAYS =
      "trialDays must be between 0 and " + CreateSubscriptionValidator.MAX_TRIAL_DAYS;
}
