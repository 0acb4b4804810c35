package dev.billing.api.resources;

/** Body of PUT .../payment-method: the new gateway token (never card data). */
public record ChangePaymentMethodRequest(String paymentMethod) {}
