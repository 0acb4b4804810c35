package dev.billing.activities.delivery;

import dev.billing.domain.Digests;

/**
 * The {@code Billing-Signature} header of a delivery: {@code t=<unix seconds>,v1=<hex
 * HMAC-SHA256(secret, "<t>.<body>")>}, the scheme of the sandbox gateway's webhooks. The time is
 * signed with the body, so a product that refuses old timestamps refuses replays too.
 */
public final class DeliverySignature {
  public static final String HEADER = "Billing-Signature";

  private DeliverySignature() {}

  public static String header(String secret, long unixSeconds, byte[] body) {
    byte[] mac = Digests.hmacSha256(Digests.utf8(secret), Digests.utf8(unixSeconds + "."), body);
    return "t=" + unixSeconds + ",v1=" + Digests.hex(mac);
  }
}
