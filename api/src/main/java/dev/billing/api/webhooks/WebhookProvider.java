package dev.billing.api.webhooks;

import java.time.Instant;

/**
 * A provider's webhook dialect: where it puts the signature and how its events read. The signature
 * scheme is the same for both (t=..,v1=.. over "t.body"), only the header differs.
 */
interface WebhookProvider {
  String STRIPE = "stripe";
  String SANDBOX = "sandbox";

  /** The path segment and the stored events' provider. */
  String name();

  String signatureHeader();

  /**
   * Reads a delivery whose signature was verified.
   *
   * @throws WebhookPayloadException when the body is not an event of this provider
   */
  ParsedEvent parse(byte[] body, Instant receivedAt);
}
