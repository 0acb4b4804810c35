package dev.billing.api.ops;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * {@code POST /v1/ops/reconciliations} body; every field optional, the body too.
 *
 * @param lookbackDays days before today to check again, 1 to 30 (default 3)
 * @param repair false: report only, change nothing (default true)
 * @param accountId with {@code subscriptionId}: check only that subscription (its drift, whatever
 *     its dates), without a window
 */
public record StartReconciliationRequest(
    @JsonProperty("lookbackDays") Integer lookbackDays,
    @JsonProperty("repair") Boolean repair,
    @JsonProperty("accountId") String accountId,
    @JsonProperty("subscriptionId") String subscriptionId) {}
