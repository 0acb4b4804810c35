package dev.billing.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.SubscriptionState.Phase;
import io.temporal.api.common.v1.Payload;
import io.temporal.common.converter.DataConverter;
import io.temporal.common.converter.DefaultDataConverter;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import org.junit.jupiter.api.Test;

/** Workflow inputs and results cross Temporal as JSON; java.time values must come back unchanged. */
class DataConverterRoundTripTest {

  private final DataConverter converter = DefaultDataConverter.newDefaultInstance();

  private static Subscription paidOnce() {
    BillingSchedule schedule =
        new BillingSchedule(YearMonth.of(2028, 2), 29, Term.YEARLY, "America/New_York", 7);
    return new Subscription("acc-7", "sub-1", "PRO-YEARLY", dev.billing.domain.Money.parse("120.00", "USD"),
        "ada@example.com", BillingTestEnvironment.CARD, schedule, SubscriptionStatus.PAST_DUE, 2,
        LocalDate.of(2029, 2, 21), LocalDate.of(2029, 2, 28), Instant.parse("2028-02-22T05:00:00.123Z"),
        Instant.parse("2028-02-29T05:00:00.004Z"), Instant.parse("2027-11-20T10:15:30Z"), 7, "req-hash-1");
  }

  @Test
  void subscriptionInputRoundTrips() {
    SubscriptionInput input = new SubscriptionInput(paidOnce(), true);

    Payload payload = converter.toPayload(input).orElseThrow();

    assertThat(converter.fromPayload(payload, SubscriptionInput.class, SubscriptionInput.class))
        .isEqualTo(input);
    // Dates travel as ISO strings, not as arrays or epoch numbers, so other SDKs and the UI read them.
    assertThat(payload.getData().toStringUtf8())
        .contains("\"anchorMonth\":\"2028-02\"", "\"nextPaymentDate\":\"2029-02-28\"",
            "\"lastReminderAt\":\"2028-02-22T05:00:00.123Z\"");
  }

  @Test
  void subscriptionStateWithNullsRoundTrips() {
    Subscription requested = paidOnce().withNothingDue().withLastPaymentAt(null);
    SubscriptionState state = new SubscriptionState(requested, Phase.WAITING_FOR_PAYMENT,
        Instant.parse("2029-02-28T05:00:00Z"), "cycle 2 reminder sent");

    Payload payload = converter.toPayload(state).orElseThrow();

    assertThat(converter.fromPayload(payload, SubscriptionState.class, SubscriptionState.class))
        .isEqualTo(state);
  }
}
