package dev.billing.workflows.delivery;

/**
 * @param delivered deliveries this run ended with a 2xx
 * @param failed deliveries this run gave up on
 */
public record DeliveryResult(int delivered, int failed) {}
