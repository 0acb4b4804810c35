package dev.billing.api.resources;

import dev.billing.api.constraints.PaymentMethodToken;
import dev.billing.api.constraints.Required;

/** Body of PUT .../payment-method: the new gateway token (never card data). */
public record ChangePaymentMethodRequest(
    @Required(message = "paymentMethod is required") @PaymentMethodToken String paymentMethod) {}
