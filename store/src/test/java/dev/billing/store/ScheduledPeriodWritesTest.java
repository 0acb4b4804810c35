package dev.billing.store;

import static dev.billing.store.Fixtures.CREATED;
import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Lifecycle;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.RecordResult;
import dev.billing.domain.Subscription;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The next period as a SCHEDULED record, written in the change's own transaction. */
class ScheduledPeriodWritesTest extends StoreTestBase {
  private static final Instant REMINDED = Instant.parse("2026-02-12T08:00:00Z");

  private String account;
  private String sub;
  private Subscription v1;

  @BeforeEach
  void names() {
    account = id("acc");
    sub = id("sub");
    v1 = Fixtures.subscription(account, sub);
  }

  private static AttributeValue s(String value) {
    return AttributeValue.fromS(value);
  }

  @Test
  void aCreatedSubscriptionHasItsFirstPeriodScheduledAtThePriceAndDueDate() {
    store.createSubscription(Fixtures.created(v1));

    assertThat(billingItem("ACC#" + account, "PER#" + sub + "#00000001"))
        .containsEntry("Status", s("SCHEDULED"))
        .containsEntry("DueDate", s("2026-02-15"))
        .containsEntry("Amount", AttributeValue.fromN("9.99"))
        .containsEntry("Currency", s("USD"))
        .containsEntry("Attempts", AttributeValue.fromN("0"))
        .doesNotContainKey("TransactionId");
    assertThat(store.getPeriod(account, sub, 1)).contains(Fixtures.scheduled(v1, CREATED));
  }

  @Test
  void aPeriodThatWasChargedIsNeverOverwrittenAndTheChangeIsStillWritten() {
    store.createSubscription(Fixtures.created(v1));
    // A charged period 1 while the record still works towards cycle 1: not a state the workflow
    // writes, but the change must neither overwrite the money nor be stopped by it.
    var charged = Fixtures.period(v1, PeriodStatus.COMPLETED, 1, "txn-1", REMINDED);
    client.putItem(r -> r.tableName(tables.billing()).item(PeriodItems.item(charged)));
    RecordInput reminder = Fixtures.reminderSent(v1, REMINDED);

    assertThat(store.updateSubscription(reminder)).isEqualTo(new RecordResult(2, false));
    assertThat(store.updateSubscription(reminder)).isEqualTo(new RecordResult(2, true));

    assertThat(store.getSubscription(account, sub)).contains(reminder.next());
    assertThat(store.getPeriod(account, sub, 1)).contains(charged);
  }

  @Test
  void aCancellationAtThePeriodsEndRemovesTheScheduledPeriod() {
    store.createSubscription(Fixtures.created(v1));
    Subscription cancelling =
        v1.withLifecycle(Lifecycle.NONE.withCancelsOn(LocalDate.of(2026, 2, 15))).withVersion(2);

    store.updateSubscription(
        new RecordInput(
            "cancel/req-1",
            v1,
            cancelling,
            HistoryEvent.CANCELLATION_SCHEDULED,
            Process.API,
            "api:ada",
            "cancels on 2026-02-15",
            null,
            null,
            REMINDED));

    assertThat(store.getPeriod(account, sub, 1)).isEmpty();
  }

  @Test
  void aChargeMovesTheScheduleToTheNextCycle() {
    store.createSubscription(Fixtures.created(v1));
    Instant paidAt = Instant.parse("2026-02-15T07:30:00Z");
    RecordInput paid = Fixtures.paid(v1, 1, "txn-1", paidAt);

    store.updateSubscription(paid);

    assertThat(store.getPeriod(account, sub, 1)).contains(paid.period());
    assertThat(store.getPeriod(account, sub, 2))
        .contains(Fixtures.scheduled(paid.next(), paidAt))
        .get()
        .extracting(p -> p.dueDate())
        .isEqualTo(LocalDate.of(2026, 3, 15));
  }

  @Test
  void aReactivationSchedulesAgainThePeriodItsCancellationClosedUncharged() {
    store.createSubscription(Fixtures.created(v1));
    Subscription cancelled =
        v1.withStatus(dev.billing.domain.SubscriptionStatus.CANCELLED).withVersion(2);
    store.updateSubscription(
        new RecordInput(
            "cancel/req-1",
            v1,
            cancelled,
            HistoryEvent.SUBSCRIPTION_CANCELLED,
            Process.API,
            "api:ada",
            "cancelled",
            Fixtures.period(v1, PeriodStatus.CANCELLED, 0, null, REMINDED),
            null,
            REMINDED));
    assertThat(store.getPeriod(account, sub, 1))
        .get()
        .extracting(p -> p.status())
        .isEqualTo(PeriodStatus.CANCELLED);
    Instant reactivatedAt = Instant.parse("2026-02-13T08:00:00Z");
    Subscription reactivated =
        cancelled.withStatus(dev.billing.domain.SubscriptionStatus.ACTIVE).withVersion(3);

    store.updateSubscription(
        new RecordInput(
            "reactivate/v3",
            cancelled,
            reactivated,
            HistoryEvent.SUBSCRIPTION_REACTIVATED,
            Process.API,
            "api:ada",
            "reactivated",
            null,
            null,
            reactivatedAt));

    assertThat(store.getPeriod(account, sub, 1))
        .contains(Fixtures.scheduled(reactivated, reactivatedAt));
  }

  @Test
  void aCancelledPeriodThatHoldsAChargeIsNeverScheduledOver() {
    store.createSubscription(Fixtures.created(v1));
    var charged = Fixtures.period(v1, PeriodStatus.CANCELLED, 1, "txn-1", REMINDED);
    client.putItem(r -> r.tableName(tables.billing()).item(PeriodItems.item(charged)));

    store.updateSubscription(Fixtures.reminderSent(v1, REMINDED));

    assertThat(store.getPeriod(account, sub, 1)).contains(charged);
  }
}
