package dev.billing.workflows;

import dev.billing.workflows.activities.PaymentFailures;
import io.temporal.activity.ActivityOptions;
import io.temporal.activity.LocalActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;

/**
 * Timeouts and retry policies of the subscription workflow's activities. Each one is named for the
 * activity it governs, and its comment says what the numbers protect, so an operator reading a
 * stuck or failed activity in the Temporal UI can tell whether it behaves as intended.
 */
public final class BillingActivityOptions {
  private BillingActivityOptions() {}

  /** Temporal's "no attempt limit". */
  private static final int UNLIMITED = 0;

  /** Retries from {@code initial}, doubling, at most a minute apart. */
  private static RetryOptions.Builder doubling(Duration initial, int maxAttempts) {
    return RetryOptions.newBuilder()
        .setInitialInterval(initial)
        .setBackoffCoefficient(2)
        .setMaximumInterval(Duration.ofMinutes(1))
        .setMaximumAttempts(maxAttempts);
  }

  /**
   * RecordChange (one DynamoDB transaction). The system of record must end up with every change, so
   * it is retried for as long as it takes: 1 s, 2 s, 4 s ... capped at one attempt a minute, with
   * no attempt limit. Retries are safe because the store recognises a change that already committed
   * by its change id. Only a non-retryable failure from the store ends it.
   */
  public static final ActivityOptions RECORD_CHANGE =
      ActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofSeconds(30))
          .setRetryOptions(doubling(Duration.ofSeconds(1), UNLIMITED).build())
          .build();

  /**
   * Calls to the gateway for one charge attempt, retries included (same idempotency key each time).
   */
  public static final int CHARGE_MAX_CALLS = 6;

  /**
   * ChargePaymentMethod. Gateway errors are retried 2 s, 4 s, 8 s, 16 s, 32 s apart (about a minute
   * in all, six calls) with the same idempotency key, so a retry never charges twice. A decline
   * (soft or hard) is the customer's answer, not an outage: it is never retried here; the workflow
   * records it and its dunning schedule decides whether and when to try again.
   */
  public static final ActivityOptions CHARGE_PAYMENT_METHOD =
      ActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofSeconds(30))
          .setRetryOptions(
              doubling(Duration.ofSeconds(2), CHARGE_MAX_CALLS)
                  .setDoNotRetry(PaymentFailures.DECLINED, PaymentFailures.DECLINED_HARD)
                  .build())
          .build();

  /**
   * The shortest time a reminder gets, even when it starts moments before the payment is due: long
   * enough for one notifier call, short enough that the charge is barely later than its due
   * instant.
   */
  public static final Duration REMINDER_MIN_WINDOW = Duration.ofSeconds(5);

  /**
   * SendPaymentReminder. A reminder must never delay the charge it announces, so all its attempts
   * together (ScheduleToClose) end at the payment's due instant; within that window it is retried
   * like a record (1 s doubling, at most a minute apart). The notifier deduplicates by message id.
   *
   * @param untilDue time from now to the due instant of the payment the reminder announces
   */
  public static ActivityOptions sendPaymentReminder(Duration untilDue) {
    Duration window = untilDue.compareTo(REMINDER_MIN_WINDOW) < 0 ? REMINDER_MIN_WINDOW : untilDue;
    return ActivityOptions.newBuilder()
        .setStartToCloseTimeout(Duration.ofSeconds(30))
        .setScheduleToCloseTimeout(window)
        .setRetryOptions(doubling(Duration.ofSeconds(1), UNLIMITED).build())
        .build();
  }

  /**
   * LookUpCharge: read-only, so retried like a charge (six calls about a minute apart in all). If
   * the gateway still does not answer, the workflow keeps the outcome unknown and asks again before
   * the next attempt: it never charges again without an answer about the previous key.
   */
  public static final ActivityOptions LOOK_UP_CHARGE =
      ActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofSeconds(30))
          .setRetryOptions(doubling(Duration.ofSeconds(2), CHARGE_MAX_CALLS).build())
          .build();

  /**
   * {@code options} on the payment task queue of the calling workflow's queue ({@link
   * TaskQueues#payments}), whose rate limit keeps the gateway under its own. For the payment
   * activities' stubs; call from workflow code only.
   */
  public static ActivityOptions onPaymentsQueue(ActivityOptions options) {
    return ActivityOptions.newBuilder(options)
        .setTaskQueue(TaskQueues.payments(Workflow.getInfo().getTaskQueue()))
        .build();
  }

  /** How long a customer notice may keep trying before it is given up (and logged). */
  public static final Duration NOTICE_WINDOW = Duration.ofMinutes(10);

  /**
   * NotifyCustomer. Runs beside billing, never in front of it: the workflow does not wait for it
   * except before it continues as new or ends (so the notice is not abandoned), hence the short
   * overall window. The notifier deduplicates by message id, so retries are safe.
   */
  public static final ActivityOptions NOTIFY_CUSTOMER =
      ActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofSeconds(30))
          .setScheduleToCloseTimeout(NOTICE_WINDOW)
          .setRetryOptions(doubling(Duration.ofSeconds(1), UNLIMITED).build())
          .build();

  /**
   * CurrentDunningPolicy, a local activity reading the worker's configuration. A few quick tries;
   * if the configuration cannot be read the workflow falls back to DunningPolicy.DEFAULT (logged)
   * rather than leave a period without a schedule.
   */
  public static final LocalActivityOptions DUNNING_POLICY =
      LocalActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofSeconds(5))
          .setScheduleToCloseTimeout(Duration.ofSeconds(30))
          .setRetryOptions(
              RetryOptions.newBuilder()
                  .setInitialInterval(Duration.ofSeconds(1))
                  .setBackoffCoefficient(2)
                  .setMaximumAttempts(3)
                  .build())
          .build();
}
