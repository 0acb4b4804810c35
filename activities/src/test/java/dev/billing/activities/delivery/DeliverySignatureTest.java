package dev.billing.activities.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DeliverySignatureTest {
  @Test
  void theHeaderSignsTheTimestampAndTheBodyWithTheSecret() {
    byte[] body = "{\"id\":\"evt_1\"}".getBytes(StandardCharsets.UTF_8);
    // Computed independently: hmac.new(b'whsec_test', b'1700000000.{"id":"evt_1"}', sha256)
    assertThat(DeliverySignature.header("whsec_test", 1_700_000_000L, body))
        .isEqualTo(
            "t=1700000000,v1=c89214b5b5da833daed6f0b8c5bb6bd58cea9022bd80ccc78230f3942d632925");
    assertThat(DeliverySignature.header("whsec_other", 1_700_000_000L, body))
        .isNotEqualTo(DeliverySignature.header("whsec_test", 1_700_000_000L, body));
    assertThat(DeliverySignature.header("whsec_test", 1_700_000_001L, body))
        .isNotEqualTo(DeliverySignature.header("whsec_test", 1_700_000_000L, body));
  }
}
