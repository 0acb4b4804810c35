package dev.billing.workflows;

import dev.billing.domain.Money;

/**
 * Refund (part of) a collected period through the gateway.
 *
 * @param cycle the period's id
 * @param amount what to refund; null refunds all that is still refundable
 * @param requestedBy the principal that asked, kept in the history
 */
public record RefundRequest(long cycle, Money amount, String reason, String requestedBy) {}
