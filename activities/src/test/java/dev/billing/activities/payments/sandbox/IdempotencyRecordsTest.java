package dev.billing.activities.payments.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class IdempotencyRecordsTest {
  private static final Instant T0 = Instant.parse("2026-02-01T05:00:00Z");
  private final IdempotencyRecords<String, String> records =
      new IdempotencyRecords<>(Duration.ofHours(24));

  @Test
  void remembersFromTheFirstRequestForTheRetentionThenForgets() {
    records.remember("k", "params", "answer", T0);

    assertThat(records.find("k", T0.plus(Duration.ofHours(24)).minusMillis(1)))
        .isEqualTo(new IdempotencyRecords.Entry<>("params", "answer", T0));
    assertThat(records.find("k", T0.plus(Duration.ofHours(24)))).isNull();
    // Forgotten for good, even if the clock went back.
    assertThat(records.find("k", T0)).isNull();
  }

  @Test
  void prunesExpiredKeysAsTimeGoesOn() {
    records.remember("a", "p", "1", T0);
    records.remember("b", "p", "2", T0.plus(Duration.ofHours(12)));
    records.remember("c", "p", "3", T0.plus(Duration.ofHours(30)));

    assertThat(records.size(T0.plus(Duration.ofHours(30)))).isEqualTo(2);
    assertThat(records.size(T0.plus(Duration.ofHours(36)))).isEqualTo(1);
    assertThat(records.find("c", T0.plus(Duration.ofHours(36)))).isNotNull();
  }

  @Test
  void aRecordBehindALaterOneStillExpiresWhenAskedFor() {
    records.remember("late", "p", "1", T0.plus(Duration.ofHours(10)));
    records.remember("early", "p", "2", T0); // a clock that moved back

    assertThat(records.find("early", T0.plus(Duration.ofHours(24)))).isNull();
    assertThat(records.find("late", T0.plus(Duration.ofHours(24)))).isNotNull();
  }

  @Test
  void aConflictNamesTheParametersNotTheirValues() {
    assertThat(IdempotencyRecords.conflict("charge:s:1:1", List.of("amount", "customer")))
        .hasMessage(
            "Keys for idempotent requests can only be used with the same parameters they"
                + " were first used with. Try using a key other than 'charge:s:1:1' if you meant to"
                + " execute a different request (differs: amount, customer).");
  }
}
