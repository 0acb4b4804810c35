package dev.billing.activities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.billing.domain.Period;
import dev.billing.domain.Receipt;
import dev.billing.domain.RecordInput;
import dev.billing.domain.RecordResult;
import dev.billing.domain.Subscription;
import dev.billing.store.BillingStore;
import dev.billing.store.DuePayment;
import dev.billing.store.DueReminder;
import dev.billing.store.HistoryEntry;
import dev.billing.store.Page;
import dev.billing.store.PageRequest;
import dev.billing.store.StaleWriteException;
import io.temporal.failure.ApplicationFailure;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which store call a change becomes, and what a stale write turns into; the store is a stub. */
class ChangeRecorderTest {
  private final StubStore store = new StubStore();
  private final ChangeRecorder recorder = new ChangeRecorder(store);

  @Test
  void aChangeWithoutPreviousStateCreates() {
    store.result = new RecordResult(1, false);

    assertThat(recorder.record(Fixtures.creation())).isEqualTo(new RecordResult(1, false));
    assertThat(store.calls).containsExactly("create create");
  }

  @Test
  void aChangeWithPreviousStateUpdates() {
    store.result = new RecordResult(2, true);

    assertThat(recorder.record(Fixtures.reminderRecorded())).isEqualTo(new RecordResult(2, true));
    assertThat(store.calls).containsExactly("update cycle-1/reminder");
  }

  @Test
  void aStaleWriteIsARetryableStaleWriteSoTheWorkflowNeverFailsAfterACharge() {
    store.stale = new StaleWriteException("stored version 3 is not older than 2");

    ApplicationFailure failure =
        catchThrowableOfType(
            ApplicationFailure.class, () -> recorder.record(Fixtures.reminderRecorded()));

    assertThat(failure.getType()).isEqualTo("StaleWrite");
    assertThat(failure.isNonRetryable()).isFalse();
    assertThat(failure.getOriginalMessage())
        .isEqualTo(
            "Stale write of subscription sub-1 (change"
                + " cycle-1/reminder, version 2): stored version 3 is not older than 2. The stored"
                + " subscription was changed outside its workflow; retrying until an operator reconciles"
                + " it (docs/operations.md).");
  }

  @Test
  void aCommittedChangeAndOneFoundCommittedAreHandedToDeliveryAndAStaleOneIsNot() {
    List<String> handed = new ArrayList<>();
    ChangeRecorder delivering = new ChangeRecorder(store, change -> handed.add(change.changeId()));
    store.result = new RecordResult(1, false);
    delivering.record(Fixtures.creation());
    store.result = new RecordResult(1, true); // the retry of an attempt that died after its write
    delivering.record(Fixtures.creation());
    store.stale = new StaleWriteException("stored version 3 is not older than 2");
    catchThrowableOfType(
        ApplicationFailure.class, () -> delivering.record(Fixtures.reminderRecorded()));

    assertThat(handed).containsExactly("create", "create");
  }

  @Test
  void aHandoffThatFailsNeverFailsTheRecord() {
    var endpoints =
        new dev.billing.store.endpoints.WebhookEndpointStore(
            software.amazon.awssdk.services.dynamodb.DynamoDbClient.builder()
                .region(software.amazon.awssdk.regions.Region.US_EAST_1)
                .endpointOverride(java.net.URI.create("http://127.0.0.1:1"))
                .overrideConfiguration(
                    c ->
                        c.retryStrategy(software.amazon.awssdk.core.retry.RetryMode.STANDARD)
                            .retryStrategy(b -> b.maxAttempts(1)))
                .credentialsProvider(
                    software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider.create())
                .build(),
            "billing",
            new byte[32]);
    ChangeRecorder delivering =
        new ChangeRecorder(
            store,
            new dev.billing.activities.delivery.EndpointDeliveryHandoff(
                endpoints,
                (sub, ids) -> {
                  throw new IllegalStateException("never reached");
                }));
    store.result = new RecordResult(1, false);

    assertThat(delivering.record(Fixtures.creation())).isEqualTo(new RecordResult(1, false));
  }

  private static final class StubStore implements BillingStore {
    final List<String> calls = new ArrayList<>();
    RecordResult result;
    StaleWriteException stale;

    @Override
    public RecordResult createSubscription(RecordInput change) {
      calls.add("create " + change.changeId());
      return answer();
    }

    @Override
    public RecordResult updateSubscription(RecordInput change) {
      calls.add("update " + change.changeId());
      return answer();
    }

    private RecordResult answer() {
      if (stale != null) {
        throw stale;
      }
      return result;
    }

    @Override
    public boolean createReceipt(Receipt receipt) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Page<DueReminder> getDueRemindersByDate(LocalDate date, PageRequest page) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Page<DuePayment> getDuePaymentsByDate(LocalDate date, PageRequest page) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Page<Subscription> getSubscriptionsByAccount(String accountId, PageRequest page) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Page<Receipt> getReceiptsByAccount(String accountId, Instant now, PageRequest page) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Optional<Subscription> getSubscription(String accountId, String subscriptionId) {
      throw new UnsupportedOperationException();
    }

    @Override
    public java.util.Optional<Period> getPeriod(
        String accountId, String subscriptionId, long cycle) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Page<Period> getPeriods(String accountId, String subscriptionId, PageRequest page) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Page<HistoryEntry> getHistory(String subscriptionId, PageRequest page) {
      throw new UnsupportedOperationException();
    }
  }
}
