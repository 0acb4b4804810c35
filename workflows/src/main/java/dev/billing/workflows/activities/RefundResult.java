package dev.billing.workflows.activities;

import dev.billing.domain.Money;
import java.time.Instant;

/** A refund the gateway accepted (the same answer for a retried key). */
public record RefundResult(String refundId, Money amount, Instant processedAt) {}
