package dev.billing.api.subscriptions;

/**
 * The body of POST /v1/accounts/{accountId}/subscriptions, exactly as sent. Every field is a nullable
 * wrapper so that "absent" can take its default and everything else is checked, with field-level
 * messages, by {@link CreateSubscriptionValidator}. Amounts and dates are strings on purpose: an
 * amount is never a binary floating-point number.
 */
public record CreateSubscriptionRequest(
    String sku,
    String amount,
    String currency,
    String email,
    String paymentMethod,
    String term,
    Integer billingDay,
    String startDate,
    String timeZone,
    Integer reminderDaysBefore,
    Integer trialDays,
    String locale) {}
