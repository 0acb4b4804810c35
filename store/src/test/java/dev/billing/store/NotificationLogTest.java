package dev.billing.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.Period;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The notification log in the billing table, on DynamoDB Local. */
class NotificationLogTest extends StoreTestBase {
  private static final Instant AT = Instant.parse("2026-01-29T05:00:00Z");
  private static final Instant ANSWERED = Instant.parse("2026-01-29T05:00:01.250Z");

  private NotificationLog notificationLog;
  private String account;
  private String subscription;

  @BeforeEach
  void log() {
    notificationLog = new NotificationLog(client, tables.billing(), Period.ofMonths(12));
    account = id("acc");
    subscription = id("sub");
  }

  private LoggedNotification sent(String messageId) {
    return new LoggedNotification(
        account,
        subscription,
        messageId,
        1,
        "PAYMENT_REMINDER",
        "ada@example.com",
        NotificationStatus.SENT,
        AT,
        ANSWERED,
        null,
        null);
  }

  @Test
  void anEntryIsOneItemUnderTheAccountWithTheMessageIdInItsSortKeyAndATtl() {
    assertThat(notificationLog.recordOnce(sent("<reminder.1." + subscription + "@billing>")))
        .isTrue();

    Map<String, AttributeValue> item =
        billingItem(
            "ACC#" + account, "MSG#" + subscription + "#<reminder.1." + subscription + "@billing>");
    assertThat(item.get("Type").s()).isEqualTo("MESSAGE");
    assertThat(item.get("Status").s()).isEqualTo("SENT");
    assertThat(item.get("Kind").s()).isEqualTo("PAYMENT_REMINDER");
    assertThat(item.get("Recipient").s()).isEqualTo("ada@example.com");
    assertThat(item.get("NotifiedDate").s()).isEqualTo("2026-01-29T05:00:00.000Z");
    assertThat(item.get("AnsweredDate").s()).isEqualTo("2026-01-29T05:00:01.250Z");
    // A year after the notification, in epoch seconds (the table's TTL attribute).
    assertThat(item.get("ExpiresAt").n())
        .isEqualTo(Long.toString(Instant.parse("2027-01-29T05:00:00Z").getEpochSecond()));
    // Never in a due-date index.
    assertThat(item)
        .doesNotContainKeys(
            "NextReminderDate", "NextPaymentDate", "LastReminderDate", "LastPaymentDate");
  }

  @Test
  void theFirstAnswerIsKeptAndASecondPutIsRefused() {
    String messageId = "<payment-failed-1.3." + subscription + "@billing>";
    LoggedNotification bounced =
        new LoggedNotification(
            account,
            subscription,
            messageId,
            3,
            "PAYMENT_FAILED",
            "ada@example.com",
            NotificationStatus.BOUNCED,
            AT,
            ANSWERED,
            "550 5.1.1 mailbox unavailable",
            null);
    assertThat(notificationLog.recordOnce(bounced)).isTrue();

    assertThat(notificationLog.recordOnce(sent(messageId))).isFalse();

    assertThat(notificationLog.find(account, subscription, messageId))
        .hasValue(
            new LoggedNotification(
                account,
                subscription,
                messageId,
                3,
                "PAYMENT_FAILED",
                "ada@example.com",
                NotificationStatus.BOUNCED,
                AT,
                ANSWERED,
                "550 5.1.1 mailbox unavailable",
                Instant.parse("2027-01-29T05:00:00Z")));
  }

  @Test
  void anUnknownMessageIsNotFound() {
    assertThat(
            notificationLog.find(
                account, subscription, "<reminder.9." + subscription + "@billing>"))
        .isEmpty();
  }

  @Test
  void aSubscriptionsMessagesAreListedWithoutItsNeighbours() {
    notificationLog.recordOnce(sent("<reminder.1." + subscription + "@billing>"));
    notificationLog.recordOnce(sent("<reminder.2." + subscription + "@billing>"));
    String neighbour = subscription + "0"; // shares the prefix of the id, not of the key
    notificationLog.recordOnce(
        new LoggedNotification(
            account,
            neighbour,
            "<reminder.1." + neighbour + "@billing>",
            1,
            "PAYMENT_REMINDER",
            "bo@example.com",
            NotificationStatus.SENT,
            AT,
            ANSWERED,
            null,
            null));

    assertThat(notificationLog.messagesOf(account, subscription))
        .extracting(LoggedNotification::messageId)
        .containsExactly(
            "<reminder.1." + subscription + "@billing>",
            "<reminder.2." + subscription + "@billing>");
    // The account's other reads ignore message items.
    assertThat(store.getSubscriptionsByAccount(account, PageRequest.first(10)).items()).isEmpty();
    assertThat(store.getReceiptsByAccount(account, AT, PageRequest.first(10)).items()).isEmpty();
  }
}
