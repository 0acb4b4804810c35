package dev.billing.api.resources;

import dev.billing.api.constraints.EmailAddress;
import dev.billing.api.constraints.LanguageTag;
import dev.billing.api.constraints.TimeZoneId;

/**
 * Body of POST .../customer: any of the three, each checked as at creation; one left out stays as
 * it is. At least one is required, which the resource checks.
 */
public record ChangeCustomerRequest(
    @EmailAddress String email, @LanguageTag String locale, @TimeZoneId String timeZone) {}
