package dev.billing.activities;

import dev.billing.activities.notifications.MailRejectedException;
import dev.billing.activities.notifications.MailUnavailableException;
import dev.billing.activities.notifications.Notification;
import io.temporal.failure.ApplicationFailure;

/**
 * Turns a failed send into the activity failure an operator reads in the Temporal UI: which message
 * of which subscription, what the server said, and whether it will be retried.
 */
final class MailFailures {
  private MailFailures() {}

  static ApplicationFailure unavailable(Notification n, MailUnavailableException e) {
    return ApplicationFailure.newFailureWithCause(
        describe(n)
            + " not sent: "
            + e.getMessage()
            + ". Retried with backoff under the same Message-ID; billing goes on (docs/operations.md).",
        ActivityFailureTypes.MAIL_SERVER_UNAVAILABLE,
        e);
  }

  static ApplicationFailure rejected(Notification n, MailRejectedException e) {
    return ApplicationFailure.newNonRetryableFailureWithCause(
        describe(n)
            + " refused: "
            + e.getMessage()
            + ". Not retried: the server would refuse it again (docs/operations.md).",
        ActivityFailureTypes.MAIL_REJECTED,
        e);
  }

  private static String describe(Notification n) {
    return "Message "
        + n.messageId()
        + " ("
        + n.kind()
        + ") of subscription "
        + n.subscriptionId()
        + " to "
        + n.to();
  }
}
