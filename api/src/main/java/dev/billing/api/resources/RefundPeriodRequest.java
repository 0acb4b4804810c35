package dev.billing.api.resources;

/**
 * Optional body of POST .../periods/{periodId}/refund.
 *
 * @param amount a decimal string in the subscription's currency; absent refunds all that is still
 *     refundable
 */
public record RefundPeriodRequest(String amount, String reason) {}
