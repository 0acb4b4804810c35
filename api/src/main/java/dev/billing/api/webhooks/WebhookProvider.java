package dev.billing.api.webhooks;

import java.time.Instant;

/**
 * A provider's webhook dialect: where it puts the signature, how it is checked and how its events
 * read. Both sign "t.body" in a {@code t=..,v1=..} header; Stripe's is checked by stripe-java, the
 * sandbox's by {@link WebhookSignatures}.
 */
interface WebhookProvider {
  String STRIPE = "stripe";
  String SANDBOX = "sandbox";

  /** The path segment and the stored events' provider. */
  String name();

  String signatureHeader();

  /** Checks the parsed signature header against the raw body and the endpoint's secret. */
  WebhookSignatures.Verdict verify(SignatureHeader header, byte[] body, byte[] secret, Instant now);

  /**
   * Reads a delivery whose signature was verified.
   *
   * @throws WebhookPayloadException when the body is not an event of this provider
   */
  ParsedEvent parse(byte[] body, Instant receivedAt);
}
