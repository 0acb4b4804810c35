package dev.billing.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.DunningPolicy;
import dev.billing.domain.PaymentEvent;
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
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Workflow inputs and results cross Temporal as JSON; java.time values must come back unchanged.
 */
class DataConverterRoundTripTest {

  private final DataConverter converter = DefaultDataConverter.newDefaultInstance();

  private static Subscription paidOnce() {
    BillingSchedule schedule =
        new BillingSchedule(YearMonth.of(2028, 2), 29, Term.YEARLY, "America/New_York", 7);
    return new Subscription(
        "acc-7",
        "sub-1",
        "PRO-YEARLY",
        dev.billing.domain.Money.parse("120.00", "USD"),
        "ada@example.com",
        BillingTestEnvironment.CARD,
        schedule,
        SubscriptionStatus.PAST_DUE,
        2,
        LocalDate.of(2029, 2, 21),
        LocalDate.of(2029, 2, 28),
        Instant.parse("2028-02-22T05:00:00.123Z"),
        Instant.parse("2028-02-29T05:00:00.004Z"),
        Instant.parse("2027-11-20T10:15:30Z"),
        7,
        "req-hash-1");
  }

  @Test
  void subscriptionInputRoundTrips() {
    SubscriptionInput input = new SubscriptionInput(paidOnce(), true);

    Payload payload = converter.toPayload(input).orElseThrow();

    assertThat(converter.fromPayload(payload, SubscriptionInput.class, SubscriptionInput.class))
        .isEqualTo(input);
    // Dates travel as ISO strings, not as arrays or epoch numbers, so other SDKs and the UI read
    // them.
    assertThat(payload.getData().toStringUtf8())
        .contains(
            "\"anchorMonth\":\"2028-02\"",
            "\"nextPaymentDate\":\"2029-02-28\"",
            "\"lastReminderAt\":\"2028-02-22T05:00:00.123Z\"");
  }

  @Test
  void aMovedPeriodRoundTrips() {
    Subscription moved =
        paidOnce()
            .withLifecycle(
                dev.billing.domain.Lifecycle.NONE.withMoved(
                    new dev.billing.domain.MovedPeriod(
                        1, LocalDate.of(2028, 2, 29), LocalDate.of(2029, 2, 28), 20, 31)));
    SubscriptionInput input = new SubscriptionInput(moved, true);

    Payload payload = converter.toPayload(input).orElseThrow();

    assertThat(converter.fromPayload(payload, SubscriptionInput.class, SubscriptionInput.class))
        .isEqualTo(input);
  }

  @Test
  void subscriptionStateWithNullsRoundTrips() {
    Subscription requested = paidOnce().withNothingDue().withLastPaymentAt(null);
    SubscriptionState state =
        new SubscriptionState(
            requested,
            Phase.WAITING_FOR_PAYMENT,
            Instant.parse("2029-02-28T05:00:00Z"),
            "cycle 2 reminder sent");

    Payload payload = converter.toPayload(state).orElseThrow();

    assertThat(converter.fromPayload(payload, SubscriptionState.class, SubscriptionState.class))
        .isEqualTo(state);
  }

  @Test
  void anInputWrittenBeforeCollectionsExistedReadsAsEmpty() {
    Payload v1 = converter.toPayload(new SubscriptionInput(paidOnce(), true)).orElseThrow();
    String json = v1.getData().toStringUtf8().replaceFirst(",\"collections\":\\{[^}]*\\}", "");
    assertThat(json).doesNotContain("collections");

    SubscriptionInput read =
        converter.fromPayload(
            v1.toBuilder().setData(com.google.protobuf.ByteString.copyFromUtf8(json)).build(),
            SubscriptionInput.class,
            SubscriptionInput.class);

    assertThat(read.subscription()).isEqualTo(paidOnce());
    assertThat(read.collections()).isEqualTo(CollectionState.EMPTY);
  }

  @Test
  void openPeriodsAndPendingEventsRoundTrip() {
    CollectionState collections =
        new CollectionState(
            List.of(
                OpenPeriod.dunning(
                        2,
                        2,
                        true,
                        DunningPolicy.DEFAULT,
                        LocalDate.of(2029, 2, 28),
                        1,
                        "card_declined",
                        "Your card was declined.",
                        dev.billing.domain.Money.parse("120.00", "USD"))
                    .withRetryNow(true),
                OpenPeriod.dunning(
                        1,
                        4,
                        true,
                        DunningPolicy.DEFAULT,
                        LocalDate.of(2029, 1, 31),
                        4,
                        "gateway_unavailable",
                        null,
                        dev.billing.domain.Money.parse("120.00", "USD"))
                    .resolving(Instant.parse("2029-02-05T06:00:00Z")),
                OpenPeriod.pending(
                    3, 1, null, null, 0, Instant.parse("2029-03-05T05:00:00Z"), "txn_3", null)),
            List.of(
                new SettledCharge(
                    1,
                    1,
                    "charge:sub-1:1:1",
                    "txn_1",
                    dev.billing.domain.Money.parse("120.00", "USD"))),
            List.of("evt_1", "evt_2"),
            List.of(
                new PaymentEvent(
                    "evt_2",
                    "sandbox",
                    PaymentEvent.Type.CHARGE_SUCCEEDED,
                    "sub-1",
                    3,
                    "charge:sub-1:3:1",
                    "txn_3",
                    null,
                    null,
                    Instant.parse("2029-03-02T10:00:00Z"))),
            List.of(),
            List.of("charge:sub-1:4:1"),
            List.of(new SettledCharge(5, 1, "charge:sub-1:5:1", "txn_5", null)),
            List.of(
                new SentKey(
                    2,
                    "charge:sub-1:2:2",
                    new dev.billing.domain.PaymentMethod("cus_A/pm_1", "Visa •••• 4242"),
                    java.time.Instant.parse("2028-02-16T00:01:02Z"))));
    SubscriptionInput input = new SubscriptionInput(paidOnce(), true, collections);

    Payload payload = converter.toPayload(input).orElseThrow();

    assertThat(converter.fromPayload(payload, SubscriptionInput.class, SubscriptionInput.class))
        .isEqualTo(input);
  }
}
