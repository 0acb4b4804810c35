package dev.billing.api.resources;

import dev.billing.api.constraints.AmountInCurrency;
import dev.billing.api.constraints.CurrencyCode;
import dev.billing.api.constraints.OneOf;
import dev.billing.api.constraints.PricedRequest;
import dev.billing.api.constraints.ReportedInOrder;
import dev.billing.api.constraints.Required;
import dev.billing.api.constraints.Sku;
import jakarta.validation.constraints.Pattern;

/**
 * Body of POST .../plan. The currency is required and must be the subscription's (checked against
 * it by the resource), so an amount is never read in a currency the caller did not mean.
 *
 * @param effective "now" (prorated at once) or "periodEnd" (from the next cycle)
 * @param term optional: "MONTHLY" or "YEARLY", billed from the change on; absent keeps the
 *     subscription's
 */
@AmountInCurrency
@ReportedInOrder({"sku", "currency", "amount", "effective", "term"})
public record ChangePlanRequest(
    @Required(message = "sku is required") @Sku String sku,
    @Required(message = "amount is required") String amount,
    @Required(message = "currency is required") @CurrencyCode String currency,
    @Required(message = "effective is required")
        @OneOf(
            value = {"now", "periodEnd"},
            message = "effective must be \"now\" or \"periodEnd\"")
        String effective,
    @Pattern(regexp = "MONTHLY|YEARLY", message = "term must be MONTHLY or YEARLY") String term)
    implements PricedRequest {}
