package dev.billing.activities.views;

/**
 * Only the display mask: the gateway token is a credential-like reference and stays server-side.
 */
public record PaymentMethodView(String mask) {}
