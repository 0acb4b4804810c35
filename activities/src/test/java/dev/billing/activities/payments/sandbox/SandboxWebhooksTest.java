package dev.billing.activities.payments.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.activities.payments.GatewayEvent;
import dev.billing.activities.payments.GatewayEvent.Type;
import dev.billing.activities.payments.sandbox.SandboxWebhooks.SignedWebhook;
import dev.billing.domain.Money;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SandboxWebhooksTest {
  private static final Instant SETTLED = Instant.parse("2026-02-04T05:00:00.123Z");
  private static final Instant SENT = Instant.parse("2026-02-04T05:01:00Z");
  private static final GatewayEvent SETTLEMENT =
      new GatewayEvent(
          "evt_sb_52306b91a4c665b053e402d5",
          Type.SUCCEEDED,
          SETTLED,
          "charge:sub-1:1:1",
          "ch_sb_335631d4fe51e776484e0fe6",
          "sub-1",
          1,
          new Money(999, "USD"),
          null,
          null);
  private static final String BODY =
      "{\"id\":\"evt_sb_52306b91a4c665b053e402d5\","
          + "\"type\":\"charge.succeeded\",\"created\":1770181200,"
          + "\"data\":{\"idempotencyKey\":\"charge:sub-1:1:1\","
          + "\"transactionId\":\"ch_sb_335631d4fe51e776484e0fe6\",\"subscriptionId\":\"sub-1\","
          + "\"cycle\":1,\"amount\":\"9.99\",\"currency\":\"USD\",\"failureCode\":null,"
          + "\"failureMessage\":null}}";
  // printf '1770181260.<BODY>' | openssl dgst -sha256 -hmac whsec_sandbox_dev_only
  private static final String SIGNATURE =
      "t=1770181260,v1=e1d2a809ac600987aab09f7cc4df99560409e217aa78d50e78a299cc7bff144f";

  @Test
  void rendersTheEventAsTheDocumentedCompactJson() {
    assertThat(SandboxWebhooks.body(SETTLEMENT)).isEqualTo(BODY);
  }

  @Test
  void rendersFailureFieldsAndEscapesStrings() {
    GatewayEvent returned =
        new GatewayEvent(
            "evt_sb_1",
            Type.RETURNED,
            SETTLED,
            "k",
            "ch_sb_1",
            "sub \"1\"",
            12,
            new Money(120, "JPY"),
            "insufficient_funds",
            "line1\nline2\\");

    assertThat(SandboxWebhooks.body(returned))
        .isEqualTo(
            "{\"id\":\"evt_sb_1\","
                + "\"type\":\"charge.returned\",\"created\":1770181200,\"data\":{\"idempotencyKey\":\"k\","
                + "\"transactionId\":\"ch_sb_1\",\"subscriptionId\":\"sub \\\"1\\\"\",\"cycle\":12,"
                + "\"amount\":\"120\",\"currency\":\"JPY\",\"failureCode\":\"insufficient_funds\","
                + "\"failureMessage\":\"line1\\nline2\\\\\"}}");
  }

  @Test
  void signsTimestampDotBodyWithHmacSha256() {
    SignedWebhook signed = SandboxWebhooks.sign(SETTLEMENT, SandboxWebhooks.DEV_SECRET, SENT);

    assertThat(signed).isEqualTo(new SignedWebhook(BODY, SIGNATURE));
  }
}
