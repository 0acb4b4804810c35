package dev.billing.activities.payments.sandbox;

import dev.billing.activities.payments.GatewayEvent;
import dev.billing.domain.ChargeRefund;
import dev.billing.domain.Digests;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;

/**
 * The sandbox's webhook wire format, shared by the dev stack (which polls {@link
 * SandboxGateway#listEvents} and posts what it finds) and the webhook endpoint's tests.
 *
 * <p>{@code POST /v1/webhooks/sandbox} with header {@code Sandbox-Signature: t=<unix
 * seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>} and a compact JSON body, fields in this
 * order:
 *
 * <pre>{@code
 * {"id":"evt_sb_...","type":"charge.succeeded","created":1770181200,
 *  "data":{"idempotencyKey":"charge:sub-1:3:1","transactionId":"ch_sb_...","subscriptionId":"sub-1",
 *          "cycle":3,"amount":"9.99","currency":"USD","failureCode":null,"failureMessage":null}}
 * }</pre>
 *
 * ({@code created} is the event's time, {@code t} the signing time; the body is one line.) Types:
 * charge.succeeded, charge.failed, charge.returned (a returned debit, or a lost dispute with code
 * {@code dispute_lost}), charge.refunded ({@code amount} is everything refunded of the charge so
 * far, and {@code data} ends with {@code "refunds":[{"id","amount","idempotencyKey","created"}]},
 * the key null on a refund made in the dashboard), charge.dispute.created ({@code amount} the
 * amount disputed, {@code failureCode} the reason), charge.dispute.won.
 */
public final class SandboxWebhooks {
  private SandboxWebhooks() {}

  public static final String PATH = "/v1/webhooks/sandbox";
  public static final String SIGNATURE_HEADER = "Sandbox-Signature";

  /** The environment variable holding the secret, and its dev-only default. */
  public static final String SECRET_ENV = "SANDBOX_WEBHOOK_SECRET";

  public static final String DEV_SECRET = "whsec_sandbox_dev_only";

  /** How far the signing time may be from the receiver's clock, either way. */
  public static final Duration TOLERANCE = Duration.ofSeconds(300);

  /** A rendered, signed delivery: post {@code body} with header {@code signatureHeader}. */
  public record SignedWebhook(String body, String signatureHeader) {}

  /** The JSON body of one event, exactly as posted (and signed). */
  public static String body(GatewayEvent event) {
    StringBuilder json = new StringBuilder(320);
    json.append("{\"id\":")
        .append(string(event.id()))
        .append(",\"type\":")
        .append(string(event.type().wireName()))
        .append(",\"created\":")
        .append(event.occurredAt().getEpochSecond())
        .append(",\"data\":{\"idempotencyKey\":")
        .append(string(event.idempotencyKey()))
        .append(",\"transactionId\":")
        .append(string(event.transactionId()))
        .append(",\"subscriptionId\":")
        .append(string(event.subscriptionId()))
        .append(",\"cycle\":")
        .append(event.cycle())
        .append(",\"amount\":")
        .append(string(event.amount().toPlainString()))
        .append(",\"currency\":")
        .append(string(event.amount().currency()))
        .append(",\"failureCode\":")
        .append(string(event.failureCode()))
        .append(",\"failureMessage\":")
        .append(string(event.failureMessage()));
    if (event.type() == GatewayEvent.Type.REFUNDED) {
      json.append(",\"refunds\":[");
      for (int i = 0; i < event.refunds().size(); i++) {
        ChargeRefund refund = event.refunds().get(i);
        json.append(i == 0 ? "" : ",")
            .append("{\"id\":")
            .append(string(refund.refundId()))
            .append(",\"amount\":")
            .append(string(refund.amount().toPlainString()))
            .append(",\"idempotencyKey\":")
            .append(string(refund.idempotencyKey()))
            .append(",\"created\":")
            .append(refund.createdAt() == null ? "null" : refund.createdAt().getEpochSecond())
            .append('}');
      }
      json.append(']');
    }
    json.append("}}");
    return json.toString();
  }

  /** Renders and signs one event at {@code signedAt}. */
  public static SignedWebhook sign(GatewayEvent event, String secret, Instant signedAt) {
    String body = body(event);
    return new SignedWebhook(body, signatureHeader(secret, signedAt.getEpochSecond(), body));
  }

  /** {@code t=<t>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>}. */
  public static String signatureHeader(String secret, long t, String body) {
    return "t=" + t + ",v1=" + HexFormat.of().formatHex(hmac(secret, t + "." + body));
  }

  private static byte[] hmac(String secret, String payload) {
    Objects.requireNonNull(secret, "secret");
    return Digests.hmacSha256(Digests.utf8(secret), Digests.utf8(payload));
  }

  private static String string(String value) {
    if (value == null) {
      return "null";
    }
    StringBuilder out = new StringBuilder(value.length() + 2).append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }
}
