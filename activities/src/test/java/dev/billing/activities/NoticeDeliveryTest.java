package dev.billing.activities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.billing.activities.notifications.Mails;
import dev.billing.domain.Money;
import dev.billing.store.LoggedNotification;
import dev.billing.store.NotificationStatus;
import dev.billing.workflows.activities.NotificationActivities;
import dev.billing.workflows.activities.NotifyCustomerInput;
import dev.billing.workflows.activities.NotifyCustomerResult;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import jakarta.mail.internet.MimeMessage;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * NotifyCustomer against a real SMTP server that goes down, defers, bounces and refuses: a retry
 * never sends a message twice, an outage is a retryable failure that logs nothing, a bounce is a
 * result (not a failure) and is remembered.
 */
class NoticeDeliveryTest {
  private static final String MESSAGE_ID = "<payment-failed-1.3.sub-1@billing>";

  private MailActivities t;
  private NotificationActivities activities;

  @BeforeEach
  void start() {
    t = new MailActivities();
    activities = t.stub(NotificationActivities.class);
  }

  @AfterEach
  void stop() {
    t.close();
  }

  private static NotifyCustomerInput failedPayment(String email) {
    return new NotifyCustomerInput(
        NotifyCustomerInput.Kind.PAYMENT_FAILED,
        MESSAGE_ID,
        "acc-1",
        "sub-1",
        3,
        email,
        "pro-monthly",
        Money.parse("9.99", "USD"),
        LocalDate.of(2026, 4, 2),
        "Visa •••• 4242",
        "Your card has insufficient funds.",
        "Europe/Paris",
        Instant.parse("2026-03-31T22:00:00Z"),
        "en-US");
  }

  @Test
  void aRetriedNoticeIsNotSentTwice() {
    NotifyCustomerResult first = activities.notifyCustomer(failedPayment("ana@example.com"));
    NotifyCustomerResult retry = activities.notifyCustomer(failedPayment("ana@example.com"));

    assertThat(first).isEqualTo(new NotifyCustomerResult(MESSAGE_ID, false, false, null));
    assertThat(retry).isEqualTo(new NotifyCustomerResult(MESSAGE_ID, true, false, null));
    assertThat(t.mail.received())
        .extracting(NoticeDeliveryTest::messageId)
        .containsExactly(MESSAGE_ID);
    assertThat(t.dynamo.notificationLog.find("acc-1", "sub-1", MESSAGE_ID))
        .get()
        .extracting(
            LoggedNotification::status, LoggedNotification::kind, LoggedNotification::recipient)
        .containsExactly(NotificationStatus.SENT, "PAYMENT_FAILED", "ana@example.com");
  }

  @Test
  void anOutageIsARetryableFailureThatLogsNothingAndTheRetryAfterItDeliversOnce() {
    t.mail.stop();

    ActivityFailure down =
        catchThrowableOfType(
            ActivityFailure.class,
            () -> activities.notifyCustomer(failedPayment("ana@example.com")));

    ApplicationFailure cause = (ApplicationFailure) down.getCause();
    assertThat(cause.getType()).isEqualTo("MailServerUnavailable");
    assertThat(cause.isNonRetryable()).isFalse();
    // What an operator reads in the Temporal UI: which message, whose, which server, what happened.
    assertThat(cause.getOriginalMessage())
        .startsWith(
            "Message "
                + MESSAGE_ID
                + " (PAYMENT_FAILED) of subscription sub-1 to ana@example.com"
                + " not sent: cannot connect to the SMTP server 127.0.0.1:"
                + t.mail.port()
                + ": ")
        .contains("Connection refused")
        .endsWith(
            "Retried with backoff under the same Message-ID; billing goes on (docs/operations.md).");
    assertThat(t.dynamo.notificationLog.find("acc-1", "sub-1", MESSAGE_ID)).isEmpty();

    t.mail.start();
    NotifyCustomerResult afterOutage = activities.notifyCustomer(failedPayment("ana@example.com"));
    NotifyCustomerResult lateRetry = activities.notifyCustomer(failedPayment("ana@example.com"));

    assertThat(afterOutage.duplicate()).isFalse();
    assertThat(lateRetry.duplicate()).isTrue();
    assertThat(t.mail.received())
        .extracting(NoticeDeliveryTest::messageId)
        .containsExactly(MESSAGE_ID);
  }

  @Test
  void aDeferredRecipientIsRetryableLikeAnOutage() {
    ActivityFailure deferred =
        catchThrowableOfType(
            ActivityFailure.class,
            () -> activities.notifyCustomer(failedPayment("defer@example.com")));

    ApplicationFailure cause = (ApplicationFailure) deferred.getCause();
    assertThat(cause.getType()).isEqualTo("MailServerUnavailable");
    assertThat(cause.isNonRetryable()).isFalse();
    assertThat(cause.getOriginalMessage()).contains("deferred the recipient: 451 4.2.0");
    assertThat(t.dynamo.notificationLog.find("acc-1", "sub-1", MESSAGE_ID)).isEmpty();
    assertThat(t.mail.received()).isEmpty();
  }

  @Test
  void aBounceIsReportedNotRetriedAndRemembered() {
    NotifyCustomerResult bounced = activities.notifyCustomer(failedPayment("bounce@example.com"));
    NotifyCustomerResult again = activities.notifyCustomer(failedPayment("bounce@example.com"));

    String answer = "550 5.1.1 <bounce@example.com>: mailbox unavailable";
    assertThat(bounced).isEqualTo(new NotifyCustomerResult(MESSAGE_ID, false, true, answer));
    assertThat(again).isEqualTo(new NotifyCustomerResult(MESSAGE_ID, true, true, answer));
    assertThat(t.mail.received()).isEmpty();
    assertThat(t.dynamo.notificationLog.find("acc-1", "sub-1", MESSAGE_ID))
        .get()
        .extracting(LoggedNotification::status, LoggedNotification::detail)
        .containsExactly(NotificationStatus.BOUNCED, answer);
  }

  @Test
  void aMessageRefusedForGoodIsANonRetryableFailure() {
    ActivityFailure refused =
        catchThrowableOfType(
            ActivityFailure.class,
            () -> activities.notifyCustomer(failedPayment("refuse@example.com")));

    ApplicationFailure cause = (ApplicationFailure) refused.getCause();
    assertThat(cause.getType()).isEqualTo("MailRejected");
    assertThat(cause.isNonRetryable()).isTrue();
    assertThat(cause.getOriginalMessage())
        .contains("refused the message (DATA): 554 5.7.1 message refused by policy");
    assertThat(t.dynamo.notificationLog.find("acc-1", "sub-1", MESSAGE_ID)).isEmpty();
  }

  private static String messageId(MimeMessage message) {
    return Mails.header(message, "Message-ID");
  }
}
