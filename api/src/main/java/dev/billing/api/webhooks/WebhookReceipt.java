package dev.billing.api.webhooks;

/**
 * The answer to an accepted delivery.
 *
 * @param duplicate the event was already stored by an earlier delivery
 */
public record WebhookReceipt(boolean received, boolean duplicate) {}
