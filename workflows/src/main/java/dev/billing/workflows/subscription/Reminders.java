package dev.billing.workflows.subscription;

import dev.billing.domain.BillingIds;
import dev.billing.domain.EmailBounce;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.workflows.BillingActivityOptions;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.activities.ReminderActivities;
import dev.billing.workflows.activities.SendReminderInput;
import dev.billing.workflows.activities.SendReminderResult;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.TemporalFailure;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;

/** A cycle's payment reminder: its activity sends the message and records that it was sent. */
final class Reminders {
  private static final Logger log = Workflow.getLogger(Reminders.class);

  private Reminders() {}

  /**
   * Sends the cycle's reminder, which records it, unless the payment is already due. A failure
   * never stops billing.
   */
  static void remind(RunState run, long cycle, Instant dueAt) {
    Instant now = RunState.now();
    if (!now.isBefore(dueAt)) {
      run.outcome("cycle " + cycle + " reminder skipped: the payment was already due at " + dueAt);
      return;
    }
    run.phase(Phase.SENDING_REMINDER);
    Subscription current = run.current();
    String messageId = BillingIds.messageId(current.subscriptionId(), cycle, "reminder");
    RecordInput change = SubscriptionChanges.reminderSent(current, messageId, now);
    ReminderActivities reminders =
        Workflow.newActivityStub(
            ReminderActivities.class,
            BillingActivityOptions.sendPaymentReminder(Duration.between(now, dueAt)));
    try {
      SendReminderResult sent =
          reminders.sendReminder(SendReminderInput.of(current, cycle, messageId, change));
      run.replace(RunState.landed(change.next(), sent.version()));
      run.outcome(
          "cycle "
              + cycle
              + " reminder "
              + messageId
              + " sent for the payment due "
              + run.current().nextPaymentDate());
      if (sent.bounced()) {
        run.notices.bounced(
            new EmailBounce(RunState.now(), messageId, sent.bounceReason()), current.email());
        run.outcome(
            "cycle " + cycle + " reminder " + messageId + " bounced: " + sent.bounceReason());
      }
    } catch (ActivityFailure e) {
      // The activity may have recorded the reminder before failing, so its version counts as used:
      // the next write skips past it (the store only requires a higher version), and a late
      // reminder record can then never overwrite the charge.
      run.replace(run.current().withVersion(change.next().version()));
      run.outcome("cycle " + cycle + " reminder failed (" + reasonOf(e) + "); billing anyway");
      log.warn(
          "cycle {} reminder of {} failed; billing anyway", cycle, current.subscriptionId(), e);
    }
  }

  private static String reasonOf(ActivityFailure failure) {
    Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
    return cause instanceof TemporalFailure temporal
        ? temporal.getOriginalMessage()
        : cause.getMessage();
  }
}
