package dev.billing.store;

import static dev.billing.store.Fixtures.CREATED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.RecordResult;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.store.HistoryEntry.FieldChange;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** createSubscription and updateSubscription: items written, version check, retries. */
class SubscriptionWritesTest extends StoreTestBase {
  private static final Instant REMINDED = Instant.parse("2026-02-12T08:00:00.250Z");

  private String account;
  private String sub;
  private Subscription v1;

  @BeforeEach
  void names() {
    account = id("acc");
    sub = id("sub");
    v1 = Fixtures.subscription(account, sub);
  }

  @Test
  void createWritesTheSubscriptionItemWithSeedAttributes() {
    assertThat(store.createSubscription(Fixtures.created(v1)))
        .isEqualTo(new RecordResult(1, false));

    assertThat(billingItem("ACC#" + account, "SUB#" + sub + "#SKU#SKU-PRO"))
        .isEqualTo(
            Map.ofEntries(
                Map.entry("PK", s("ACC#" + account)),
                Map.entry("SK", s("SUB#" + sub + "#SKU#SKU-PRO")),
                Map.entry("Type", s("SUBSCRIPTION")),
                Map.entry("AccountId", s(account)),
                Map.entry("SubscriptionId", s(sub)),
                Map.entry("Email", s("ada@example.com")),
                Map.entry("SKU", s("SKU-PRO")),
                Map.entry("PaymentDay", n("15")),
                Map.entry("PaymentAmount", n("9.99")),
                Map.entry("Currency", s("USD")),
                Map.entry(
                    "PaymentDetails",
                    AttributeValue.fromM(
                        Map.of("Token", s("pm_card_visa"), "Mask", s("Visa 4242")))),
                Map.entry("LastPaymentDate", s("NEVER")),
                Map.entry("LastReminderDate", s("NEVER")),
                Map.entry("Locale", s("en-US")),
                // Index keys: the date and the subscription's shard (DateKeySharding).
                Map.entry("NextPaymentDate", s("2026-02-15#" + store.sharding().shardOf(sub))),
                Map.entry("NextReminderDate", s("2026-02-12#" + store.sharding().shardOf(sub))),
                Map.entry("CreatedDate", s("2026-01-10T09:00:00.000Z")),
                Map.entry("Status", s("ACTIVE")),
                Map.entry("Term", s("MONTHLY")),
                Map.entry("TimeZone", s("Europe/Paris")),
                Map.entry("ReminderDaysBefore", n("3")),
                Map.entry("AnchorMonth", s("2026-02")),
                Map.entry("Cycle", n("1")),
                Map.entry("Version", n("1")),
                Map.entry("LastChangeId", s("create")),
                Map.entry("RequestHash", s("req-hash-1")),
                Map.entry("UpdatedDate", s("2026-01-10T09:00:00.000Z"))));
    assertThat(store.getSubscription(account, sub)).contains(v1);
  }

  @Test
  void createAppendsAHistoryEntryListingEveryField() {
    store.createSubscription(Fixtures.created(v1));

    assertThat(store.getHistory(sub, PageRequest.first(10)).items())
        .containsExactly(
            new HistoryEntry(
                sub,
                account,
                CREATED,
                1,
                HistoryEvent.SUBSCRIPTION_CREATED,
                Process.API,
                "api:ada",
                "subscription created",
                1,
                List.of(
                    new FieldChange("AccountId", null, account),
                    new FieldChange("AnchorMonth", null, "2026-02"),
                    new FieldChange("CreatedDate", null, "2026-01-10T09:00:00.000Z"),
                    new FieldChange("Currency", null, "USD"),
                    new FieldChange("Cycle", null, "1"),
                    new FieldChange("Email", null, "ada@example.com"),
                    new FieldChange("Locale", null, "en-US"),
                    new FieldChange("NextPaymentDate", null, "2026-02-15"),
                    new FieldChange("NextReminderDate", null, "2026-02-12"),
                    new FieldChange("PaymentAmount", null, "9.99"),
                    new FieldChange("PaymentDay", null, "15"),
                    new FieldChange("PaymentDetails.Mask", null, "Visa 4242"),
                    new FieldChange("PaymentDetails.Token", null, "pm_card_visa"),
                    new FieldChange("ReminderDaysBefore", null, "3"),
                    new FieldChange("RequestHash", null, "req-hash-1"),
                    new FieldChange("SKU", null, "SKU-PRO"),
                    new FieldChange("Status", null, "ACTIVE"),
                    new FieldChange("SubscriptionId", null, sub),
                    new FieldChange("Term", null, "MONTHLY"),
                    new FieldChange("TimeZone", null, "Europe/Paris")),
                v1));
  }

  @Test
  void aRetriedCreateIsAlreadyAppliedAndWritesNoSecondEntry() {
    store.createSubscription(Fixtures.created(v1));

    assertThat(store.createSubscription(Fixtures.created(v1))).isEqualTo(new RecordResult(1, true));
    assertThat(store.getHistory(sub, PageRequest.first(10)).items()).hasSize(1);
  }

  @Test
  void creatingAnExistingSubscriptionByAnotherChangeIsStale() {
    store.createSubscription(Fixtures.created(v1));
    RecordInput other =
        new RecordInput(
            "create-again",
            null,
            v1.withVersion(2),
            HistoryEvent.SUBSCRIPTION_CREATED,
            Process.API,
            "api:eve",
            null,
            null,
            null,
            CREATED);

    assertThatThrownBy(() -> store.createSubscription(other))
        .isExactlyInstanceOf(StaleWriteException.class)
        .hasMessage(
            "change \"create-again\" (version 2) of subscription "
                + sub
                + " was not written: the stored subscription is at version 1 (change \"create\")");
    assertThat(store.getSubscription(account, sub)).contains(v1);
  }

  @Test
  void updateWritesTheNewSnapshotAndItsDiff() {
    store.createSubscription(Fixtures.created(v1));
    RecordInput reminder = Fixtures.reminderSent(v1, REMINDED);

    assertThat(store.updateSubscription(reminder)).isEqualTo(new RecordResult(2, false));

    Subscription v2 = reminder.next();
    assertThat(store.getSubscription(account, sub)).contains(v2);
    Map<String, AttributeValue> item = billingItem("ACC#" + account, "SUB#" + sub + "#SKU#SKU-PRO");
    assertThat(item)
        .doesNotContainKey("NextReminderDate")
        .containsEntry("LastReminderDate", s("2026-02-12T08:00:00.250Z"))
        .containsEntry("Version", n("2"))
        .containsEntry("LastChangeId", s("cycle-1/reminder"))
        .containsEntry("UpdatedDate", s("2026-02-12T08:00:00.250Z"));
    assertThat(store.getHistory(sub, PageRequest.first(10)).items())
        .element(1)
        .isEqualTo(
            new HistoryEntry(
                sub,
                account,
                REMINDED,
                2,
                HistoryEvent.REMINDER_SENT,
                Process.REMINDER,
                "system",
                "reminder sent",
                1,
                List.of(
                    new FieldChange("LastReminderDate", null, "2026-02-12T08:00:00.250Z"),
                    new FieldChange("NextReminderDate", "2026-02-12", null)),
                v2));
  }

  /**
   * A change id can recur (a cycle's reminder sent again after a billing-day move or a resume):
   * each change is written, even moments apart, where DynamoDB would answer a request token it saw
   * in the last ten minutes as a replay and write nothing.
   */
  @Test
  void aChangeIdThatRecursIsWrittenEachTime() {
    store.createSubscription(Fixtures.created(v1));
    RecordInput first = Fixtures.reminderSent(v1, REMINDED);
    store.updateSubscription(first);
    Subscription v2 = first.next();
    RecordInput moved =
        new RecordInput(
            "billing-day/v3",
            v2,
            v2.withVersion(3),
            HistoryEvent.BILLING_DAY_CHANGED,
            Process.API,
            "api:ada",
            null,
            null,
            null,
            REMINDED.plusSeconds(1));
    store.updateSubscription(moved);
    RecordInput again = Fixtures.reminderSent(moved.next(), REMINDED.plusSeconds(2));

    assertThat(again.changeId()).isEqualTo(first.changeId());
    assertThat(store.updateSubscription(again)).isEqualTo(new RecordResult(4, false));
    assertThat(store.getSubscription(account, sub).orElseThrow().version()).isEqualTo(4);
  }

  @Test
  void aWriteNotNewerThanTheStoredVersionIsStale() {
    store.createSubscription(Fixtures.created(v1));
    store.updateSubscription(Fixtures.reminderSent(v1, REMINDED));
    RecordInput concurrent =
        new RecordInput(
            "cycle-1/cancel",
            v1,
            v1.withNothingDue().withVersion(2),
            HistoryEvent.SUBSCRIPTION_CANCELLED,
            Process.API,
            "api:ada",
            null,
            null,
            null,
            REMINDED.plusSeconds(1));

    assertThatThrownBy(() -> store.updateSubscription(concurrent))
        .isExactlyInstanceOf(StaleWriteException.class)
        .hasMessage(
            "change \"cycle-1/cancel\" (version 2) of subscription "
                + sub
                + " was not written: the stored subscription is at version 2 (change \"cycle-1/reminder\")");
    assertThat(store.getSubscription(account, sub).orElseThrow().nextPaymentDate())
        .isEqualTo("2026-02-15");
    assertThat(store.getHistory(sub, PageRequest.first(10)).items())
        .extracting(HistoryEntry::version)
        .containsExactly(1L, 2L);
  }

  @Test
  void aRetriedUpdateIsAlreadyAppliedAndWritesNoSecondEntry() {
    store.createSubscription(Fixtures.created(v1));
    RecordInput reminder = Fixtures.reminderSent(v1, REMINDED);
    store.updateSubscription(reminder);

    assertThat(store.updateSubscription(reminder)).isEqualTo(new RecordResult(2, true));
    assertThat(store.getHistory(sub, PageRequest.first(10)).items())
        .extracting(HistoryEntry::version)
        .containsExactly(1L, 2L);
  }

  /**
   * A retry that reaches DynamoDB with other content than the first attempt (here a later time) is
   * not deduplicated by the request token; the stored change id and version still identify it.
   */
  @Test
  void aRetryWithDifferentContentIsRecognisedByItsChangeId() {
    store.createSubscription(Fixtures.created(v1));
    store.updateSubscription(Fixtures.reminderSent(v1, REMINDED));

    assertThat(store.updateSubscription(Fixtures.reminderSent(v1, REMINDED.plusSeconds(30))))
        .isEqualTo(new RecordResult(2, true));
    assertThat(store.getSubscription(account, sub).orElseThrow().lastReminderAt())
        .isEqualTo(REMINDED);
    assertThat(store.getHistory(sub, PageRequest.first(10)).items())
        .extracting(HistoryEntry::at)
        .containsExactly(CREATED, REMINDED);
  }

  @Test
  void updatingAMissingSubscriptionIsStale() {
    assertThatThrownBy(() -> store.updateSubscription(Fixtures.reminderSent(v1, REMINDED)))
        .isExactlyInstanceOf(StaleWriteException.class)
        .hasMessage(
            "change \"cycle-1/reminder\" (version 2) of subscription "
                + sub
                + " was not written: the subscription does not exist in account "
                + account);
    assertThat(store.getHistory(sub, PageRequest.first(10)).items()).isEmpty();
  }

  @Test
  void aChargeWritesSubscriptionPeriodReceiptAndHistoryTogether() {
    store.createSubscription(Fixtures.created(v1));
    Instant paidAt = Instant.parse("2026-02-15T07:30:00.125Z");
    RecordInput paid = Fixtures.paid(v1, 1, "txn-1", paidAt);

    assertThat(store.updateSubscription(paid)).isEqualTo(new RecordResult(2, false));

    assertThat(store.getSubscription(account, sub)).contains(paid.next());
    assertThat(store.getPeriods(account, sub, PageRequest.first(10)).items())
        .containsExactly(paid.period(), Fixtures.scheduled(paid.next(), paidAt));
    assertThat(
            billingItem("ACC#" + account, "REC#2026-02-15T07:30:00.125Z#SKU#SKU-PRO#" + sub + "#1"))
        .containsEntry("ExpiresAt", n("1802676600")) // 2027-02-15T07:30:00Z
        .containsEntry("ProcessedAmount", n("9.99"))
        .containsEntry("Type", s("RECEIPT"));
    HistoryEntry entry = store.getHistory(sub, PageRequest.first(10)).items().get(1);
    assertThat(entry.cycle()).isEqualTo(1); // the cycle paid, while the subscription moved to 2
    assertThat(entry.snapshot().cycle()).isEqualTo(2);
    assertThat(entry.changes())
        .containsExactly(
            new FieldChange("Cycle", "1", "2"),
            new FieldChange("LastPaymentDate", null, "2026-02-15T07:30:00.125Z"),
            new FieldChange("NextPaymentDate", "2026-02-15", "2026-03-15"),
            new FieldChange("NextReminderDate", "2026-02-12", "2026-03-12"));
  }

  @Test
  void anExistingReceiptFailsTheWholeChange() {
    store.createSubscription(Fixtures.created(v1));
    Instant paidAt = Instant.parse("2026-02-15T07:30:00.125Z");
    RecordInput paid = Fixtures.paid(v1, 1, "txn-1", paidAt);
    assertThat(store.createReceipt(paid.receipt())).isTrue();

    assertThatThrownBy(() -> store.updateSubscription(paid))
        .isExactlyInstanceOf(StaleWriteException.class)
        .hasMessage(
            "change \"cycle-1/charge-1\" (version 2) of subscription "
                + sub
                + " was not written: receipt REC#2026-02-15T07:30:00.125Z#SKU#SKU-PRO#"
                + sub
                + "#1 already exists");
    assertThat(store.getSubscription(account, sub)).contains(v1);
    assertThat(store.getPeriods(account, sub, PageRequest.first(10)).items())
        .containsExactly(Fixtures.scheduled(v1, CREATED));
    assertThat(store.getHistory(sub, PageRequest.first(10)).items())
        .extracting(HistoryEntry::version)
        .containsExactly(1L);
  }

  /** History is append-only: an entry already at the change's key is never overwritten. */
  @Test
  void anExistingHistoryEntryFailsTheWholeChange() {
    store.createSubscription(Fixtures.created(v1));
    String historySk = "2026-02-12T08:00:00.250Z#000000000002";
    Map<String, AttributeValue> planted = Map.of("PK", s("SUB#" + sub), "SK", s(historySk));
    client.putItem(r -> r.tableName(tables.history()).item(planted));

    assertThatThrownBy(() -> store.updateSubscription(Fixtures.reminderSent(v1, REMINDED)))
        .isExactlyInstanceOf(StaleWriteException.class)
        .hasMessage(
            "change \"cycle-1/reminder\" (version 2) of subscription "
                + sub
                + " was not written: history entry SUB#"
                + sub
                + "/"
                + historySk
                + " already exists");
    assertThat(store.getSubscription(account, sub)).contains(v1);
    assertThat(client.getItem(r -> r.tableName(tables.history()).key(planted)).item())
        .isEqualTo(planted);
  }

  @Test
  void createReceiptIsConditionalOnAbsence() {
    var receipt = Fixtures.receipt(v1, 1, Instant.parse("2026-02-15T07:30:00Z"), "txn-1");

    assertThat(store.createReceipt(receipt)).isTrue();
    assertThat(store.createReceipt(receipt)).isFalse();
  }

  @Test
  void aLaterAttemptOfTheSameCycleOverwritesItsPeriod() {
    store.createSubscription(Fixtures.created(v1));
    Instant failedAt = Instant.parse("2026-02-15T07:30:00Z");
    Subscription pastDue = v1.withStatus(SubscriptionStatus.PAST_DUE).withVersion(2);
    store.updateSubscription(
        new RecordInput(
            "cycle-1/charge-1",
            v1,
            pastDue,
            HistoryEvent.PAYMENT_FAILED,
            Process.INITIAL,
            "system",
            "declined",
            new Period(
                account,
                sub,
                1,
                v1.nextPaymentDate(),
                v1.price(),
                PeriodStatus.ERROR,
                1,
                null,
                "card_declined",
                "Card declined",
                failedAt),
            null,
            failedAt));
    Instant paidAt = Instant.parse("2026-02-16T07:30:00Z");
    RecordInput retryPaid = Fixtures.paid(pastDue, 2, "txn-2", paidAt);

    store.updateSubscription(retryPaid);

    assertThat(store.getPeriods(account, sub, PageRequest.first(10)).items())
        .containsExactly(
            new Period(
                account,
                sub,
                1,
                LocalDate.of(2026, 2, 15),
                v1.price(),
                PeriodStatus.COMPLETED,
                2,
                "txn-2",
                null,
                null,
                paidAt),
            Fixtures.scheduled(retryPaid.next(), paidAt));
  }

  @Test
  void aSkuChangeMovesTheItemInTheSameTransaction() {
    store.createSubscription(Fixtures.created(v1));
    Subscription max =
        new Subscription(
            account,
            sub,
            "SKU-MAX",
            v1.price(),
            v1.email(),
            v1.paymentMethod(),
            v1.schedule(),
            v1.status(),
            v1.cycle(),
            v1.nextReminderDate(),
            v1.nextPaymentDate(),
            null,
            null,
            v1.createdAt(),
            2,
            v1.requestHash());

    store.updateSubscription(
        new RecordInput(
            "upgrade-1",
            v1,
            max,
            HistoryEvent.SUBSCRIPTION_CREATED,
            Process.API,
            "api:ada",
            "upgraded",
            null,
            null,
            REMINDED));

    assertThat(billingItem("ACC#" + account, "SUB#" + sub + "#SKU#SKU-PRO")).isEmpty();
    assertThat(store.getSubscriptionsByAccount(account, PageRequest.first(10)).items())
        .containsExactly(max);
    assertThat(store.getHistory(sub, PageRequest.first(10)).items().get(1).changes())
        .containsExactly(new FieldChange("SKU", "SKU-PRO", "SKU-MAX"));
  }

  @Test
  void aStaleSkuChangeLeavesBothItemsAsTheyWere() {
    store.createSubscription(Fixtures.created(v1));
    store.updateSubscription(Fixtures.reminderSent(v1, REMINDED));
    Subscription max =
        new Subscription(
            account,
            sub,
            "SKU-MAX",
            v1.price(),
            v1.email(),
            v1.paymentMethod(),
            v1.schedule(),
            v1.status(),
            v1.cycle(),
            v1.nextReminderDate(),
            v1.nextPaymentDate(),
            null,
            null,
            v1.createdAt(),
            2,
            v1.requestHash());

    assertThatThrownBy(
            () ->
                store.updateSubscription(
                    new RecordInput(
                        "upgrade-1",
                        v1,
                        max,
                        HistoryEvent.SUBSCRIPTION_CREATED,
                        Process.API,
                        "api:ada",
                        null,
                        null,
                        null,
                        REMINDED)))
        .isExactlyInstanceOf(StaleWriteException.class);
    assertThat(billingItem("ACC#" + account, "SUB#" + sub + "#SKU#SKU-MAX")).isEmpty();
    assertThat(store.getSubscription(account, sub).orElseThrow().version()).isEqualTo(2);
  }

  @Test
  void callerMistakesAreRejectedBeforeWriting() {
    assertThatThrownBy(() -> store.createSubscription(Fixtures.reminderSent(v1, REMINDED)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a created subscription has no previous state");
    assertThatThrownBy(() -> store.updateSubscription(Fixtures.created(v1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("an update needs the previous state");
    assertThatThrownBy(
            () ->
                store.updateSubscription(
                    new RecordInput(
                        "x",
                        v1,
                        v1,
                        HistoryEvent.REMINDER_SENT,
                        Process.REMINDER,
                        "system",
                        null,
                        null,
                        null,
                        REMINDED)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("next version 1 must be higher than previous version 1");
    Subscription other = Fixtures.subscription(account, id("other"));
    RecordInput foreignReceipt =
        new RecordInput(
            "x",
            v1,
            v1.withVersion(2),
            HistoryEvent.PAYMENT_SUCCEEDED,
            Process.INITIAL,
            "system",
            null,
            null,
            Fixtures.receipt(other, 1, REMINDED, "txn-9"),
            REMINDED);
    assertThatThrownBy(() -> store.updateSubscription(foreignReceipt))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the receipt belongs to another subscription");
  }

  private static AttributeValue s(String value) {
    return AttributeValue.fromS(value);
  }

  private static AttributeValue n(String value) {
    return AttributeValue.fromN(value);
  }
}
