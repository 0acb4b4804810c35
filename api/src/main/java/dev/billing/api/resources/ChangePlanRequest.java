package dev.billing.api.resources;

/**
 * Body of POST .../plan. The currency is required and must be the subscription's, so an amount is
 * never read in a currency the caller did not mean.
 *
 * @param effective "now" (prorated at once) or "periodEnd" (from the next cycle)
 */
public record ChangePlanRequest(String sku, String amount, String currency, String effective) {}
