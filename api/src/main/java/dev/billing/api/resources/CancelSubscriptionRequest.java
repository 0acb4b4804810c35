package dev.billing.api.resources;

/**
 * Optional body of POST .../cancel.
 *
 * @param atPeriodEnd true: stay active until the paid-through date, then end; absent or false: end
 *     now
 * @param refundUnused with an immediate cancellation only: refund the unused days of the paid
 *     period
 */
public record CancelSubscriptionRequest(String reason, Boolean atPeriodEnd, Boolean refundUnused) {}
