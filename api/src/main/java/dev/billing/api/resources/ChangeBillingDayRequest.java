package dev.billing.api.resources;

import dev.billing.api.constraints.BillingDay;
import jakarta.validation.constraints.NotNull;

/** Body of POST .../billing-day. */
public record ChangeBillingDayRequest(
    @NotNull(message = "billingDay is required") @BillingDay Integer billingDay) {}
