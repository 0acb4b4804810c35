package dev.billing.api.resources;

/** Body of POST .../billing-day. */
public record ChangeBillingDayRequest(Integer billingDay) {}
