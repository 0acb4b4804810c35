package dev.billing.workflows;

import dev.billing.workflows.activities.ChargeInput;
import dev.billing.workflows.activities.ChargeResult;
import dev.billing.workflows.activities.DeclineDetails;
import dev.billing.workflows.activities.PaymentActivities;
import dev.billing.workflows.activities.PaymentFailures;
import dev.billing.workflows.activities.RecordActivities;
import dev.billing.workflows.activities.RecordInput;
import dev.billing.workflows.activities.RecordResult;
import dev.billing.workflows.activities.ReminderActivities;
import dev.billing.workflows.activities.SendReminderInput;
import dev.billing.workflows.activities.SendReminderResult;
import io.temporal.activity.Activity;
import io.temporal.activity.ActivityInfo;
import io.temporal.failure.ApplicationFailure;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Stands in for the activities module: records every call with the Temporal time it was scheduled
 * at, and keeps the one rule of the real store that the workflow depends on: a write must carry a
 * higher version than the stored one, unless it is a retry of the change that is stored.
 */
final class FakeBillingActivities implements RecordActivities, PaymentActivities, ReminderActivities {

  /** One call as the activity saw it; {@code startedAt} is the test server's time when this attempt started. */
  record Call<T>(T input, Instant startedAt, String runId, int attempt) {}

  enum ReminderMode { DELIVER, FAIL_RETRYABLE, FAIL_NON_RETRYABLE }

  private final List<Call<RecordInput>> records = new ArrayList<>();
  private final List<Call<ChargeInput>> charges = new ArrayList<>();
  private final List<Call<SendReminderInput>> reminders = new ArrayList<>();
  private final List<RecordInput> writes = new ArrayList<>();
  private final Map<String, Long> storedVersion = new HashMap<>();
  private final Map<String, String> storedChangeId = new HashMap<>();

  private final Set<Long> declinedCycles = new HashSet<>();
  private volatile boolean gatewayDown;
  private volatile ReminderMode reminderMode = ReminderMode.DELIVER;
  private volatile CountDownLatch chargeGate;
  private volatile String heldChangeId;
  private volatile CountDownLatch recordGate;
  private final CountDownLatch chargeStarted = new CountDownLatch(1);
  private final CountDownLatch heldRecordStarted = new CountDownLatch(1);

  // Behaviour switches, set by a test before the workflow gets there.

  synchronized void declineCycle(long cycle) {
    declinedCycles.add(cycle);
  }

  void gatewayDown() {
    gatewayDown = true;
  }

  void reminders(ReminderMode mode) {
    reminderMode = mode;
  }

  /** Charges block until {@link #openCharges()}; {@link #awaitChargeStarted()} sees the first. */
  void holdCharges() {
    chargeGate = new CountDownLatch(1);
  }

  void openCharges() {
    chargeGate.countDown();
  }

  /** RecordChange of {@code changeId} blocks until {@link #openRecord()}. */
  void holdRecord(String changeId) {
    recordGate = new CountDownLatch(1);
    heldChangeId = changeId;
  }

  void openRecord() {
    recordGate.countDown();
  }

  void awaitChargeStarted() throws InterruptedException {
    if (!chargeStarted.await(10, TimeUnit.SECONDS)) {
      throw new AssertionError("no charge started");
    }
  }

  void awaitHeldRecordStarted() throws InterruptedException {
    if (!heldRecordStarted.await(10, TimeUnit.SECONDS)) {
      throw new AssertionError(heldChangeId + " was never recorded");
    }
  }

  // What the activities saw.

  synchronized List<Call<RecordInput>> records() {
    return List.copyOf(records);
  }

  synchronized List<Call<ChargeInput>> charges() {
    return List.copyOf(charges);
  }

  synchronized List<Call<SendReminderInput>> reminders() {
    return List.copyOf(reminders);
  }

  /** Every change that landed in the fake store, through RecordChange or the reminder, in order. */
  synchronized List<RecordInput> writes() {
    return List.copyOf(writes);
  }

  @Override
  public RecordResult record(RecordInput input) {
    synchronized (this) {
      records.add(call(input));
    }
    if (input.changeId().equals(heldChangeId)) {
      heldRecordStarted.countDown();
      await(recordGate);
    }
    return store(input);
  }

  @Override
  public SendReminderResult sendReminder(SendReminderInput input) {
    synchronized (this) {
      reminders.add(call(input));
    }
    switch (reminderMode) {
      case FAIL_RETRYABLE -> throw ApplicationFailure.newFailure("SMTP relay unavailable", "NotifierUnavailable");
      case FAIL_NON_RETRYABLE -> throw ApplicationFailure.newNonRetryableFailure(
          "mailbox does not exist", "AddressRejected");
      default -> { }
    }
    RecordResult stored = store(input.record());
    return new SendReminderResult(input.messageId(), false, stored.version());
  }

  @Override
  public ChargeResult charge(ChargeInput input) {
    Call<ChargeInput> call = call(input);
    boolean decline;
    synchronized (this) {
      charges.add(call);
      decline = declinedCycles.contains(input.cycle());
    }
    chargeStarted.countDown();
    if (chargeGate != null) {
      await(chargeGate);
    }
    if (decline) {
      // Thrown as retryable on purpose: only the workflow's retry options keep it from being retried.
      throw ApplicationFailure.newFailure("Your card was declined.", PaymentFailures.DECLINED,
          new DeclineDetails("card_declined", "Your card was declined."));
    }
    if (gatewayDown) {
      throw ApplicationFailure.newFailure("gateway answered 503", PaymentFailures.GATEWAY_UNAVAILABLE);
    }
    return new ChargeResult("txn_" + input.subscriptionId() + "_" + input.cycle(), call.startedAt(), false);
  }

  private synchronized RecordResult store(RecordInput input) {
    String id = input.next().subscriptionId();
    long version = input.next().version();
    Long stored = storedVersion.get(id);
    if (stored != null && stored == version && input.changeId().equals(storedChangeId.get(id))) {
      return new RecordResult(version, true);
    }
    boolean fresh = input.previous() == null ? stored == null : stored != null && stored < version;
    if (!fresh) {
      throw ApplicationFailure.newNonRetryableFailure(
          "stale write " + input.changeId() + " at version " + version + ", stored " + stored,
          "StaleWrite");
    }
    storedVersion.put(id, version);
    storedChangeId.put(id, input.changeId());
    writes.add(input);
    return new RecordResult(version, false);
  }

  private static <T> Call<T> call(T input) {
    ActivityInfo info = Activity.getExecutionContext().getInfo();
    return new Call<>(input, Instant.ofEpochMilli(info.getStartedTimestamp()),
        info.getRunId(), info.getAttempt());
  }

  private static void await(CountDownLatch gate) {
    try {
      if (!gate.await(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException("test gate never opened");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
