package dev.billing.activities.payments.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.activities.payments.GatewayEvent;
import org.junit.jupiter.api.Test;

/**
 * The sandbox's ids are stored (transaction ids on periods, event ids in the payment-events table)
 * and replayed: pinned, computed apart with Python's hashlib (prefix + sha256(seed)[:24 hex]).
 */
class SandboxIdsTest {
  private static final String KEY = "charge:sub-1:1:1";

  @Test
  void idsAreTheHashOfTheKeyAsBefore() {
    assertThat(SandboxIds.transactionId(KEY, 1)).isEqualTo("ch_sb_335631d4fe51e776484e0fe6");
    assertThat(SandboxIds.transactionId(KEY, 2)).isEqualTo("ch_sb_bc765d21e89153d02da39719");
    assertThat(SandboxIds.refundId("refund:sub-1:1:r1", 1))
        .isEqualTo("re_sb_cf2628fa4ac9f5115edb0c8e");
    assertThat(SandboxIds.eventId(KEY, GatewayEvent.Type.SUCCEEDED, 1))
        .isEqualTo("evt_sb_52306b91a4c665b053e402d5");
  }
}
