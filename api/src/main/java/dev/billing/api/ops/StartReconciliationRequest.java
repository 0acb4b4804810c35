package dev.billing.api.ops;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * {@code POST /v1/ops/reconciliations} body; every field optional, the body too.
 *
 * @param lookbackDays days before today to check again, 1 to 30 (default 3)
 * @param repair false: report only, change nothing (default true)
 * @param accountId with {@code subscriptionId}: check only that subscription (its drift, whatever
 *     its dates), without a window
 * @param checks the checks to run, some of "DRIFT", "PAYMENTS", "WEBHOOKS" (default all three);
 *     {@code ["WEBHOOKS"]} is the missed-webhook poll run now. Strings rather than an enum, so that
 *     a wrong one is refused by name here, not as an unreadable body
 */
public record StartReconciliationRequest(
    @JsonProperty("lookbackDays") Integer lookbackDays,
    @JsonProperty("repair") Boolean repair,
    @JsonProperty("accountId") String accountId,
    @JsonProperty("subscriptionId") String subscriptionId,
    @JsonProperty("checks") List<String> checks) {}
