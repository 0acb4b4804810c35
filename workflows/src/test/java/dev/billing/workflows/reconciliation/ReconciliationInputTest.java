package dev.billing.workflows.reconciliation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.billing.domain.reconciliation.FindingKind.Check;
import dev.billing.domain.reconciliation.ReconciliationSummary;
import io.temporal.api.common.v1.Payload;
import io.temporal.common.converter.DataConverter;
import io.temporal.common.converter.DefaultDataConverter;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which checks a run makes, and how its trigger names a run of some of them. */
class ReconciliationInputTest {

  private final DataConverter converter = DefaultDataConverter.newDefaultInstance();

  @Test
  void noChecksNamedMeansAllThreeInTheirOrder() {
    ReconciliationInput unnamed = new ReconciliationInput(3, true, "cron");
    ReconciliationInput empty = new ReconciliationInput(3, true, "cron", List.of());

    assertThat(unnamed.checks()).containsExactly(Check.DRIFT, Check.PAYMENTS, Check.WEBHOOKS);
    assertThat(empty.checks()).isEqualTo(unnamed.checks());
    assertThat(unnamed.checksAll()).isTrue();
    assertThat(unnamed.trigger()).isEqualTo("cron");
  }

  @Test
  void namedChecksRunInTheFixedOrderOnceEach() {
    ReconciliationInput input =
        new ReconciliationInput(
            2, true, "api:ops", List.of(Check.WEBHOOKS, Check.DRIFT, Check.WEBHOOKS));

    assertThat(input.checks()).containsExactly(Check.DRIFT, Check.WEBHOOKS);
    assertThat(input.checksAll()).isFalse();
    assertThat(new ReconciliationInput(2, true, "x", EnumSet.allOf(Check.class)).checksAll())
        .isTrue();
  }

  @Test
  void aMissingCheckOrAnOutOfRangeLookBackIsRefused() {
    assertThatThrownBy(
            () -> new ReconciliationInput(1, true, "x", Arrays.asList(Check.WEBHOOKS, null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("checks has an empty entry");
    assertThatThrownBy(() -> new ReconciliationInput(0, true, "x", List.of(Check.WEBHOOKS)))
        .hasMessage("lookbackDays must be between 1 and 30, got 0");
    assertThatThrownBy(() -> new ReconciliationInput(31, true, "x"))
        .hasMessage("lookbackDays must be between 1 and 30, got 31");
  }

  @Test
  void aRunGoesOnOnlyAtOneOfItsOwnChecks() {
    ReconciliationInput poll =
        new ReconciliationInput(1, true, "schedule:webhooks", List.of(Check.WEBHOOKS));

    ReconciliationInput resumed =
        poll.resumingAt(new ReconciliationResume(summary(), Check.WEBHOOKS, "cursor-7"));

    assertThat(resumed.checks()).containsExactly(Check.WEBHOOKS);
    assertThat(resumed.trigger()).isEqualTo("schedule:webhooks");
    assertThatThrownBy(
            () -> poll.resumingAt(new ReconciliationResume(summary(), Check.DRIFT, null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a run of [WEBHOOKS] cannot go on at DRIFT");
  }

  @Test
  void theTriggerNamesTheChecksOnlyWhenNotAllRun() {
    assertThat(ReconciliationInput.trigger("schedule", List.of(Check.WEBHOOKS)))
        .isEqualTo("schedule:webhooks");
    assertThat(ReconciliationInput.trigger("api:ops", List.of(Check.PAYMENTS, Check.DRIFT)))
        .isEqualTo("api:ops:drift+payments");
    assertThat(ReconciliationInput.trigger("cron", null)).isEqualTo("cron");
    assertThat(ReconciliationInput.trigger("cron", List.of())).isEqualTo("cron");
    assertThat(ReconciliationInput.trigger("cron", ReconciliationInput.ALL_CHECKS))
        .isEqualTo("cron");
  }

  @Test
  void theChecksCrossTemporalAndAnInputWrittenWithoutThemRunsEverything() {
    ReconciliationInput poll =
        new ReconciliationInput(1, true, "schedule:webhooks", List.of(Check.WEBHOOKS));
    Payload payload = converter.toPayload(poll).orElseThrow();
    assertThat(converter.fromPayload(payload, ReconciliationInput.class, ReconciliationInput.class))
        .isEqualTo(poll);
    assertThat(payload.getData().toStringUtf8()).contains("\"checks\":[\"WEBHOOKS\"]");

    // A cron workflow started before runs named their checks carries this input to every run.
    Payload before =
        payload.toBuilder()
            .setData(
                ByteString.copyFromUtf8(
                    "{\"lookbackDays\":3,\"repair\":true,\"trigger\":\"cron\",\"resume\":null}"))
            .build();
    ReconciliationInput read =
        converter.fromPayload(before, ReconciliationInput.class, ReconciliationInput.class);
    assertThat(read.checks()).isEqualTo(ReconciliationInput.ALL_CHECKS);
    assertThat(read.trigger()).isEqualTo("cron");
  }

  private static ReconciliationSummary summary() {
    return new ReconciliationSummary(
        "run-1",
        "billing-webhook-poll",
        "schedule:webhooks",
        ReconciliationSummary.Status.RUNNING,
        Instant.parse("2028-03-10T04:15:00Z"),
        null,
        LocalDate.of(2028, 3, 9),
        LocalDate.of(2028, 3, 10),
        true,
        null,
        null);
  }
}
