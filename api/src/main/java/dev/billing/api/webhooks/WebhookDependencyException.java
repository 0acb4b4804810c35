package dev.billing.api.webhooks;

/**
 * A signed event that cannot be read yet because something it needs (the provider's API) did not
 * answer: the provider's delivery is refused with a 503 and comes again.
 */
final class WebhookDependencyException extends RuntimeException {
  WebhookDependencyException(String message) {
    super(message, null, false, false);
  }
}
