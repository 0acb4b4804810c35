package dev.billing.workflows;

import dev.billing.domain.ChargeMinimums;
import dev.billing.domain.DunningPolicy;
import dev.billing.domain.Period;
import dev.billing.domain.RecordInput;
import dev.billing.domain.RecordResult;
import dev.billing.workflows.activities.ChargeInput;
import dev.billing.workflows.activities.ChargeLookup;
import dev.billing.workflows.activities.ChargeLookupInput;
import dev.billing.workflows.activities.ChargeResult;
import dev.billing.workflows.activities.DeclineDetails;
import dev.billing.workflows.activities.DunningPolicyRequest;
import dev.billing.workflows.activities.LoadPeriodInput;
import dev.billing.workflows.activities.LoadPeriodResult;
import dev.billing.workflows.activities.NotificationActivities;
import dev.billing.workflows.activities.NotifyCustomerInput;
import dev.billing.workflows.activities.NotifyCustomerResult;
import dev.billing.workflows.activities.PaymentActivities;
import dev.billing.workflows.activities.PaymentFailures;
import dev.billing.workflows.activities.PolicyActivities;
import dev.billing.workflows.activities.RecordActivities;
import dev.billing.workflows.activities.RefundInput;
import dev.billing.workflows.activities.RefundResult;
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
 * at, and keeps the rules of the real store that the workflow depends on: a write must carry a
 * higher version than the stored one, unless it is a retry of the change that is stored; and a
 * change id names one change of a subscription: sent again with other content it is refused as
 * stale. The real store derives its transaction token from the change id and DynamoDB refuses a
 * token reused with other parameters for ten minutes, which covers changes made back to back; the
 * fake refuses it at any time. Its gateway is a {@link FakeGatewayLedger}: Stripe's idempotency
 * rules on the workflow clock (a key forgotten after 24 hours, refused when reused with other
 * parameters, a 500 while executing kept and replayed for the key, a 503 before execution keeping
 * nothing), exact look-ups, and every charge counted, so a test sees a double charge. Refunds are
 * refused when a key is reused with other parameters and replayed when sent again with their key.
 */
final class FakeBillingActivities
    implements RecordActivities,
        PaymentActivities,
        ReminderActivities,
        PolicyActivities,
        NotificationActivities {

  /**
   * One call as the activity saw it; {@code startedAt} is the test server's time when this attempt
   * started.
   */
  record Call<T>(T input, Instant startedAt, String runId, int attempt) {}

  enum ReminderMode {
    DELIVER,
    FAIL_RETRYABLE,
    FAIL_NON_RETRYABLE
  }

  /** What the gateway does with one collection attempt (all Temporal retries of it alike). */
  enum ChargeMode {
    OK,
    SOFT_DECLINE,
    HARD_DECLINE,
    /** Every call fails with a 5xx; no money moves. */
    UNAVAILABLE,
    /** The money moves, but every call times out from the caller's side. */
    CHARGED_NO_ANSWER,
    /** Accepted; settles later (bank debit). */
    PENDING,
    /**
     * The first request with the key fails while executing (a 500, nothing charged): the gateway
     * keeps that answer and replays it for the key's 24 hours; a request after that charges.
     */
    SERVER_ERROR
  }

  private final List<Call<RecordInput>> records = new ArrayList<>();
  private final List<Call<ChargeInput>> charges = new ArrayList<>();
  private final List<Call<SendReminderInput>> reminders = new ArrayList<>();
  private final List<RecordInput> writes = new ArrayList<>();
  private final Map<String, Long> storedVersion = new HashMap<>();
  private final Map<String, Period> storedPeriods = new HashMap<>();
  private final List<Call<RefundInput>> refunds = new ArrayList<>();
  private volatile boolean refundsRefused;
  private volatile boolean receiptsUndelivered;
  private volatile boolean mailboxGone;
  private final Map<String, String> storedChangeId = new HashMap<>();

  /** Per subscription and change id, the change written under it. */
  private final Map<String, RecordInput> changesById = new HashMap<>();

  private final List<Call<ChargeLookupInput>> lookups = new ArrayList<>();
  private final List<Call<DunningPolicyRequest>> policyCalls = new ArrayList<>();
  private final List<Call<NotifyCustomerInput>> notices = new ArrayList<>();
  private final FakeGatewayLedger gateway = new FakeGatewayLedger();
  private final Map<Long, List<ChargeMode>> scripts = new HashMap<>();
  private final Set<String> declinedTokens = new HashSet<>();

  /** Per refund key: the parameters it was first sent with (amount and charge). */
  private final Map<String, String> keyParameters = new HashMap<>();

  private final Map<String, ChargeMode> keyModes = new HashMap<>();

  /**
   * Every refund the gateway made, oldest first: a key sent again after it was forgotten makes
   * another.
   */
  private final List<RefundResult> refundsMadeInOrder = new ArrayList<>();

  /** Per refund key: the refund a send within the key's memory is answered with, and since when. */
  private final Map<String, RefundResult> refundsMade = new HashMap<>();

  private int refundsUnanswered;

  /** Activity executions whose refund was made but whose every retry times out. */
  private final Set<String> unansweredRefunds = new HashSet<>();

  private volatile DunningPolicy policy = DunningPolicy.DEFAULT;
  private volatile boolean noticesFail;
  private volatile boolean mailServerDown;
  private volatile boolean lookupsDown;
  private final Set<Long> declinedCycles = new HashSet<>();
  private volatile boolean gatewayDown;
  private volatile ReminderMode reminderMode = ReminderMode.DELIVER;
  private volatile CountDownLatch chargeGate;
  private volatile String heldChangeId;
  private volatile CountDownLatch recordGate;
  private volatile CountDownLatch chargeStarted = new CountDownLatch(1);
  private final CountDownLatch heldRecordStarted = new CountDownLatch(1);

  // Behaviour switches, set by a test before the workflow gets there.

  synchronized void declineCycle(long cycle) {
    declinedCycles.add(cycle);
  }

  void gatewayDown() {
    gatewayDown = true;
  }

  /** Attempt n of the cycle behaves as {@code modes[n-1]}; attempts beyond the script succeed. */
  synchronized void script(long cycle, ChargeMode... modes) {
    scripts.put(cycle, List.of(modes));
  }

  /** Every send of this key behaves as {@code mode} (e.g. an upgrade's charge, attempt 0). */
  synchronized void chargeModeForKey(String key, ChargeMode mode) {
    keyModes.put(key, mode);
  }

  /** The next {@code sends} refunds are made, but their answer is lost (every retry times out). */
  synchronized void refundsUnanswered(int sends) {
    refundsUnanswered = sends;
  }

  /**
   * The refunds the gateway made, by key: a key sent again within its memory is replayed. Fails
   * when a key made two (sent again after the gateway forgot it): a test that reads it proves there
   * was no double refund.
   */
  synchronized Map<String, RefundResult> refundsMade() {
    Map<String, RefundResult> byKey = new HashMap<>();
    for (RefundResult made : refundsMadeInOrder) {
      String key = made.refundId().substring("re_".length()).replaceAll("_again\\d+$", "");
      if (byKey.put(key, made) != null) {
        throw new AssertionError(
            "double refund: " + key + " made " + byKey.get(key).refundId() + " and an earlier one");
      }
    }
    return Map.copyOf(byKey);
  }

  /** Every refund the gateway made, oldest first, double ones included. */
  synchronized List<RefundResult> everyRefund() {
    return List.copyOf(refundsMadeInOrder);
  }

  /** Every attempt made with this payment method token is soft-declined. */
  synchronized void declineToken(String token) {
    declinedTokens.add(token);
  }

  void policy(DunningPolicy newPolicy) {
    policy = newPolicy;
  }

  void noticesFail() {
    noticesFail = true;
  }

  /** While down, every notice fails as a mail server that does not answer: retried. */
  void mailServerDown(boolean down) {
    mailServerDown = down;
  }

  void lookupsDown(boolean down) {
    lookupsDown = down;
  }

  /** What the gateway will answer about {@code key} from now on, e.g. a bank debit that settled. */
  void gatewaySays(String key, ChargeLookup answer) {
    gateway.update(key, answer);
  }

  /** The gateway holds {@code key} from a request with other parameters: reusing it is refused. */
  synchronized void conflictingKey(String key) {
    conflicting.add(key);
  }

  private final Set<String> conflicting = new HashSet<>();

  /** Every message to the customer bounces (SMTP 550 to RCPT). */
  void mailboxGone() {
    mailboxGone = true;
  }

  /** Every message to {@code address} bounces; other addresses receive theirs. */
  void mailboxGone(String address) {
    goneAddresses.add(address);
  }

  private final Set<String> goneAddresses = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /** The record activity reports that it could not mail the receipts it wrote. */
  void receiptsUndelivered() {
    receiptsUndelivered = true;
  }

  void refundsRefused() {
    refundsRefused = true;
  }

  synchronized List<Call<RefundInput>> refunds() {
    return List.copyOf(refunds);
  }

  /** The last record written for a period, as the store would hold it. */
  synchronized Period period(String subscriptionId, long cycle) {
    return storedPeriods.get(subscriptionId + "#" + cycle);
  }

  synchronized List<Call<ChargeLookupInput>> lookups() {
    return List.copyOf(lookups);
  }

  synchronized List<Call<DunningPolicyRequest>> policyCalls() {
    return List.copyOf(policyCalls);
  }

  synchronized List<Call<NotifyCustomerInput>> notices() {
    return List.copyOf(notices);
  }

  /**
   * Keys the gateway holds a successful (or settled) charge for, with their transaction ids; fails
   * on a key that collected twice.
   */
  Map<String, String> succeededCharges() {
    return gateway.succeededByKey();
  }

  /** Every charge that holds the customer's money, one by one. */
  List<FakeGatewayLedger.Charge> successfulCharges() {
    return gateway.successful();
  }

  void reminders(ReminderMode mode) {
    reminderMode = mode;
  }

  /** Charges block until {@link #openCharges()}; {@link #awaitChargeStarted()} sees the first. */
  void holdCharges() {
    chargeStarted = new CountDownLatch(1);
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
    if (!chargeStarted.await(30, TimeUnit.SECONDS)) {
      throw new AssertionError("no charge started");
    }
  }

  void awaitHeldRecordStarted() throws InterruptedException {
    if (!heldRecordStarted.await(30, TimeUnit.SECONDS)) {
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
      case FAIL_RETRYABLE ->
          throw ApplicationFailure.newFailure("SMTP relay unavailable", "NotifierUnavailable");
      case FAIL_NON_RETRYABLE ->
          throw ApplicationFailure.newNonRetryableFailure(
              "mailbox does not exist", "AddressRejected");
      default -> {}
    }
    RecordResult stored = store(input.record());
    if (mailboxGone || goneAddresses.contains(input.email())) {
      return new SendReminderResult(input.messageId(), false, stored.version(), true, BOUNCE);
    }
    return new SendReminderResult(input.messageId(), false, stored.version());
  }

  @Override
  public ChargeResult charge(ChargeInput input) {
    Call<ChargeInput> call = call(input);
    String execution =
        Activity.getExecutionContext().getInfo().getActivityId() + "@" + call.runId();
    ChargeMode mode;
    FakeGatewayLedger.Charge earlier;
    FakeGatewayLedger.ServerError storedError;
    synchronized (this) {
      charges.add(call);
      mode = modeOf(input);
      earlier = gateway.remembered(input.idempotencyKey(), call.startedAt());
      storedError = gateway.rememberedError(input.idempotencyKey(), call.startedAt());
    }
    chargeStarted.countDown();
    if (chargeGate != null) {
      await(chargeGate);
    }
    if (!ChargeMinimums.chargeable(input.amount())) {
      // Refused before it executes, as Stripe refuses it: nothing is stored for the key.
      throw ApplicationFailure.newNonRetryableFailure(
          "Amount must be at least " + ChargeMinimums.minimum(input.amount().currency()),
          "InvalidGatewayRequest");
    }
    if (earlier != null) {
      if (conflicting.contains(input.idempotencyKey())) {
        throw idempotencyConflict(input);
      }
      return replay(earlier, input, execution);
    }
    if (storedError != null) {
      if (!storedError.sameRequest(input)) {
        throw idempotencyConflict(input);
      }
      throw serverError(input, true);
    }
    String txn =
        "txn_"
            + input.subscriptionId()
            + "_"
            + input.cycle()
            + (input.attempt() == 1 ? "" : "_" + input.attempt());
    switch (mode) {
      // Thrown as retryable on purpose: only the workflow's retry options keep them from being
      // retried.
      case SOFT_DECLINE -> {
        gateway.create(
            input,
            call.startedAt(),
            txn,
            ChargeLookup.Status.FAILED,
            "card_declined",
            "Your card was declined.",
            null);
        throw softDecline();
      }
      case HARD_DECLINE -> {
        gateway.create(
            input,
            call.startedAt(),
            txn,
            ChargeLookup.Status.FAILED,
            STOLEN,
            "The card was reported stolen.",
            null);
        throw hardDecline();
      }
      // A 5xx before the request executes: nothing is stored, as at Stripe.
      case UNAVAILABLE ->
          throw ApplicationFailure.newFailure(
              "gateway answered 503", PaymentFailures.GATEWAY_UNAVAILABLE);
      // A 500 while executing is the key's answer, kept like a charge would be.
      case SERVER_ERROR -> {
        if (!gateway.everFailedWhileExecuting(input.idempotencyKey())) {
          gateway.serverError(input, call.startedAt());
          throw serverError(input, false);
        }
        FakeGatewayLedger.Charge charge =
            gateway.create(
                input, call.startedAt(), txn, ChargeLookup.Status.SUCCEEDED, null, null, null);
        return new ChargeResult(charge.transactionId(), call.startedAt(), false);
      }
      case CHARGED_NO_ANSWER -> {
        gateway.create(
            input, call.startedAt(), txn, ChargeLookup.Status.SUCCEEDED, null, null, execution);
        throw timedOut();
      }
      case PENDING -> {
        FakeGatewayLedger.Charge charge =
            gateway.create(
                input, call.startedAt(), txn, ChargeLookup.Status.PENDING, null, null, null);
        return new ChargeResult(charge.transactionId(), call.startedAt(), false, true);
      }
      default -> {
        FakeGatewayLedger.Charge charge =
            gateway.create(
                input, call.startedAt(), txn, ChargeLookup.Status.SUCCEEDED, null, null, null);
        return new ChargeResult(charge.transactionId(), call.startedAt(), false);
      }
    }
  }

  /** A key the gateway remembers: the stored answer, or Stripe's idempotency error. */
  private static ChargeResult replay(
      FakeGatewayLedger.Charge earlier, ChargeInput input, String execution) {
    if (!earlier.sameRequest(input)) {
      throw idempotencyConflict(input);
    }
    if (execution.equals(earlier.answersLostTo())) {
      throw timedOut();
    }
    ChargeLookup state = earlier.state();
    return switch (state.status()) {
      case SUCCEEDED, RETURNED ->
          new ChargeResult(earlier.transactionId(), earlier.createdAt(), true);
      case PENDING -> new ChargeResult(earlier.transactionId(), earlier.createdAt(), true, true);
      case FAILED -> throw STOLEN.equals(state.failureCode()) ? hardDecline() : softDecline();
      case NOT_FOUND -> throw new IllegalStateException("a stored charge is never NOT_FOUND");
    };
  }

  private static ApplicationFailure idempotencyConflict(ChargeInput input) {
    return ApplicationFailure.newNonRetryableFailure(
        "Keys for idempotent requests can only be used"
            + " with the same parameters they were first used with: "
            + input.idempotencyKey(),
        PaymentFailures.IDEMPOTENCY_CONFLICT);
  }

  private static final String STOLEN = "stolen_card";

  private static ApplicationFailure softDecline() {
    return ApplicationFailure.newFailure(
        "Your card was declined.",
        PaymentFailures.DECLINED,
        new DeclineDetails("card_declined", "Your card was declined."));
  }

  private static ApplicationFailure hardDecline() {
    return ApplicationFailure.newFailure(
        "The card was reported stolen.",
        PaymentFailures.DECLINED_HARD,
        new DeclineDetails(STOLEN, "The card was reported stolen."));
  }

  private static ApplicationFailure serverError(ChargeInput input, boolean replayed) {
    return ApplicationFailure.newFailure(
        "gateway answered 500 while executing "
            + input.idempotencyKey()
            + (replayed ? " (replayed for this key)" : ""),
        PaymentFailures.GATEWAY_UNAVAILABLE);
  }

  private static ApplicationFailure timedOut() {
    return ApplicationFailure.newFailure(
        "read timed out after the request was sent", PaymentFailures.GATEWAY_UNAVAILABLE);
  }

  private void refuseReusedKey(String key, String parameters) {
    String first = keyParameters.putIfAbsent(key, parameters);
    if (first != null && !first.equals(parameters)) {
      throw ApplicationFailure.newNonRetryableFailure(
          "Keys for idempotent requests can only be used "
              + "with the same parameters they were first used with",
          PaymentFailures.IDEMPOTENCY_CONFLICT);
    }
  }

  private ChargeMode modeOf(ChargeInput input) {
    ChargeMode byKey = keyModes.get(input.idempotencyKey());
    if (byKey != null) {
      return byKey;
    }
    List<ChargeMode> script = scripts.get(input.cycle());
    if (script != null && input.attempt() <= script.size()) {
      return script.get(input.attempt() - 1);
    }
    if (declinedCycles.contains(input.cycle())
        || declinedTokens.contains(input.paymentMethod().token())) {
      return ChargeMode.SOFT_DECLINE;
    }
    return gatewayDown ? ChargeMode.UNAVAILABLE : ChargeMode.OK;
  }

  @Override
  public ChargeLookup lookUpCharge(ChargeLookupInput input) {
    synchronized (this) {
      lookups.add(call(input));
    }
    if (lookupsDown) {
      throw ApplicationFailure.newFailure(
          "gateway answered 503", PaymentFailures.GATEWAY_UNAVAILABLE);
    }
    return gateway.lookUp(
        input.idempotencyKey(),
        input.paymentMethod() == null ? null : input.paymentMethod().token(),
        input.sentFrom());
  }

  @Override
  public LoadPeriodResult loadPeriod(LoadPeriodInput input) {
    synchronized (this) {
      return new LoadPeriodResult(storedPeriods.get(input.subscriptionId() + "#" + input.cycle()));
    }
  }

  @Override
  public RefundResult refund(RefundInput input) {
    Call<RefundInput> call = call(input);
    synchronized (this) {
      refunds.add(call);
      RefundResult made = refundsMade.get(input.idempotencyKey());
      if (made != null
          && !made.processedAt().plus(FakeGatewayLedger.KEY_MEMORY).isAfter(call.startedAt())) {
        // Stripe forgets a key 24 hours after its first request: the same key is a new refund.
        refundsMade.remove(input.idempotencyKey());
        keyParameters.remove(input.idempotencyKey());
        made = null;
      }
      refuseReusedKey(input.idempotencyKey(), input.amount() + "/" + input.transactionId());
      String execution = Activity.getExecutionContext().getInfo().getActivityId();
      if (made != null && !unansweredRefunds.contains(execution)) {
        return made;
      }
      if (made == null && refundsRefused) {
        throw ApplicationFailure.newNonRetryableFailure(
            "charge already refunded in full", PaymentFailures.REFUND_REFUSED);
      }
      if (made == null) {
        long earlier =
            refundsMadeInOrder.stream()
                .filter(r -> r.refundId().startsWith("re_" + input.idempotencyKey()))
                .count();
        made =
            new RefundResult(
                "re_" + input.idempotencyKey() + (earlier == 0 ? "" : "_again" + earlier),
                input.amount(),
                call.startedAt(),
                refundsPending);
        refundsMade.put(input.idempotencyKey(), made);
        refundsMadeInOrder.add(made);
        if (refundsUnanswered > 0) {
          refundsUnanswered--;
          unansweredRefunds.add(execution);
        }
      }
      if (unansweredRefunds.contains(execution)) {
        throw ApplicationFailure.newFailure(
            "read timed out after the request was sent", PaymentFailures.GATEWAY_UNAVAILABLE);
      }
      return made;
    }
  }

  @Override
  public DunningPolicy dunningPolicy(DunningPolicyRequest request) {
    synchronized (this) {
      policyCalls.add(call(request));
    }
    return policy;
  }

  /** Refunds are accepted but not final (a bank refund Stripe reports as pending). */
  void refundsPending() {
    refundsPending = true;
  }

  private volatile boolean refundsPending;

  /**
   * Notices of this kind take {@code millis} of real time to deliver, as a slow mail relay would.
   */
  void slowNotices(NotifyCustomerInput.Kind kind, long millis) {
    slowKind = kind;
    slowMillis = millis;
  }

  private volatile NotifyCustomerInput.Kind slowKind;
  private volatile long slowMillis;

  /**
   * Notices are listed as they are delivered: {@link #notices()} is the order the customer reads.
   */
  @Override
  public NotifyCustomerResult notifyCustomer(NotifyCustomerInput input) {
    Call<NotifyCustomerInput> call = call(input);
    if (input.kind() == slowKind) {
      try {
        Thread.sleep(slowMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    synchronized (this) {
      notices.add(call);
    }
    if (noticesFail) {
      throw ApplicationFailure.newNonRetryableFailure("mailbox does not exist", "AddressRejected");
    }
    if (mailServerDown) {
      throw ApplicationFailure.newFailure(
          "no answer from the mail server", "MailServerUnavailable");
    }
    if (mailboxGone || goneAddresses.contains(input.email())) {
      return new NotifyCustomerResult(input.messageId(), false, true, BOUNCE);
    }
    return new NotifyCustomerResult(input.messageId(), false);
  }

  static final String BOUNCE = "550 5.1.1 mailbox unavailable";

  /** The store already holds the subscription at {@code version}, as a lost run left it. */
  synchronized void storedAt(String subscriptionId, long version) {
    storedVersion.put(subscriptionId, version);
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
    RecordInput sameId = changesById.putIfAbsent(id + "|" + input.changeId(), input);
    if (sameId != null && !sameId.equals(input)) {
      throw ApplicationFailure.newNonRetryableFailure(
          "stale write "
              + input.changeId()
              + " at version "
              + version
              + ": that change id was written at version "
              + sameId.next().version()
              + " with other content",
          "StaleWrite");
    }
    storedVersion.put(id, version);
    storedChangeId.put(id, input.changeId());
    writes.add(input);
    if (input.period() != null) {
      storedPeriods.put(
          input.period().subscriptionId() + "#" + input.period().cycle(), input.period());
    }
    return new RecordResult(version, false, receiptsUndelivered && input.receipt() != null);
  }

  private static <T> Call<T> call(T input) {
    ActivityInfo info = Activity.getExecutionContext().getInfo();
    return new Call<>(
        input,
        Instant.ofEpochMilli(info.getStartedTimestamp()),
        info.getRunId(),
        info.getAttempt());
  }

  private static void await(CountDownLatch gate) {
    try {
      if (!gate.await(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("test gate never opened");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
