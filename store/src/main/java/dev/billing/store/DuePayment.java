package dev.billing.store;

import dev.billing.domain.Money;
import dev.billing.domain.PaymentMethod;
import java.time.Instant;
import java.time.LocalDate;

/**
 * A GSI-2 entry: what a charge needs (the seeds project Email, PaymentDay, PaymentAmount, SKU and
 * PaymentDetails; we add the currency).
 *
 * @param lastPaymentAt null when nothing was ever paid
 */
public record DuePayment(
    String accountId,
    String subscriptionId,
    String sku,
    String email,
    int paymentDay,
    Money amount,
    PaymentMethod paymentMethod,
    LocalDate nextPaymentDate,
    Instant lastPaymentAt) {}
