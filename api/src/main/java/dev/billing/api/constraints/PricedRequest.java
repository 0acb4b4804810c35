package dev.billing.api.constraints;

/** A request that names a price: an amount in a currency, both as sent. */
public interface PricedRequest {
  String amount();

  String currency();
}
