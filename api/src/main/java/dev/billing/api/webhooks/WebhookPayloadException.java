package dev.billing.api.webhooks;

/** A signed body that is not an event we can read: the provider's mistake, answered 400. */
final class WebhookPayloadException extends RuntimeException {
  WebhookPayloadException(String message) {
    super(message, null, false, false);
  }
}
