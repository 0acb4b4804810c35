package dev.billing.activities;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.activities.notifications.Mails;
import dev.billing.domain.BillingIds;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.Process;
import dev.billing.domain.Receipt;
import dev.billing.domain.RecordInput;
import dev.billing.domain.RecordResult;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.store.LoggedNotification;
import dev.billing.store.NotificationStatus;
import dev.billing.store.PageRequest;
import dev.billing.workflows.activities.NotificationActivities;
import dev.billing.workflows.activities.NotifyCustomerInput;
import dev.billing.workflows.activities.NotifyCustomerResult;
import dev.billing.workflows.activities.RecordActivities;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The receipt email RecordChange sends after committing a paid period: at most once across retries
 * of the record, never at the cost of the record, and left to the workflow's PAYMENT_RECEIPT notice
 * (same message id) when it cannot go out.
 */
class ReceiptMailTest {
  private static final Instant PAID_AT = Instant.parse("2026-02-01T06:00:00Z");
  private static final String RECEIPT_ID = BillingIds.receiptMessageId("sub-1", 1, "sbx_ch_1");

  private MailActivities t;
  private RecordActivities records;

  @BeforeEach
  void start() {
    t = new MailActivities();
    records = t.stub(RecordActivities.class);
  }

  @AfterEach
  void stop() {
    t.close();
  }

  private RecordInput paid(String email) {
    Subscription created =
        Fixtures.subscription(
            "sub-1", Money.parse("9.99", "USD"), "UTC", SubscriptionStatus.ACTIVE, "en-US");
    created =
        new Subscription(
            created.accountId(),
            created.subscriptionId(),
            created.sku(),
            created.price(),
            email,
            created.paymentMethod(),
            created.schedule(),
            created.status(),
            1,
            created.nextReminderDate(),
            created.nextPaymentDate(),
            null,
            null,
            created.createdAt(),
            1,
            "req-hash-1");
    t.dynamo.store.createSubscription(Fixtures.creation(created));
    return Fixtures.paid(created, "sbx_ch_1", PAID_AT);
  }

  /** What the workflow sends when the record said receiptPending. */
  private static NotifyCustomerInput receiptNotice(String email) {
    return new NotifyCustomerInput(
        NotifyCustomerInput.Kind.PAYMENT_RECEIPT,
        RECEIPT_ID,
        "acc-1",
        "sub-1",
        1,
        email,
        "pro-monthly",
        Money.parse("9.99", "USD"),
        null,
        "Visa •••• 4242",
        "sbx_ch_1",
        "UTC",
        PAID_AT,
        "en-US");
  }

  @Test
  void aRetriedRecordWhoseChangeWasAppliedDoesNotMailTwice() {
    RecordInput change = paid("ana@example.com");

    RecordResult first = records.record(change);
    RecordResult retry = records.record(change);

    assertThat(first).isEqualTo(new RecordResult(2, false, false));
    assertThat(retry).isEqualTo(new RecordResult(2, true, false));
    assertThat(t.mail.received())
        .extracting(m -> Mails.header(m, "Message-ID"))
        .containsExactly(RECEIPT_ID);
  }

  @Test
  void aRecordCommittedDuringAnOutageSucceedsWithTheReceiptPendingAndTheNoticeDeliversItOnce() {
    RecordInput change = paid("ana@example.com");
    t.mail.stop();

    RecordResult recorded = records.record(change);

    assertThat(recorded).isEqualTo(new RecordResult(2, false, true));
    assertThat(t.dynamo.store.getReceiptsByAccount("acc-1", PAID_AT, PageRequest.first(10)).items())
        .singleElement()
        .extracting(r -> r.transactionId())
        .isEqualTo("sbx_ch_1");
    assertThat(t.dynamo.notificationLog.messagesOf("acc-1", "sub-1")).isEmpty();

    t.mail.start();
    NotifyCustomerResult notice =
        t.stub(NotificationActivities.class).notifyCustomer(receiptNotice("ana@example.com"));
    RecordResult lateRecordRetry = records.record(change);

    assertThat(notice).isEqualTo(new NotifyCustomerResult(RECEIPT_ID, false, false, null));
    assertThat(lateRecordRetry).isEqualTo(new RecordResult(2, true, false));
    assertThat(t.mail.received())
        .singleElement()
        .satisfies(
            mail -> {
              assertThat(Mails.header(mail, "Message-ID")).isEqualTo(RECEIPT_ID);
              assertThat(Mails.subject(mail))
                  .isEqualTo("Receipt for your pro-monthly payment of $9.99");
              assertThat(Mails.text(mail)).contains("Date:            February 1, 2026\n");
            });
  }

  @Test
  void aBouncedReceiptIsLeftPendingAndTheNoticeReportsTheBounceWithoutResending() {
    RecordInput change = paid("bounce@example.com");

    RecordResult recorded = records.record(change);
    NotifyCustomerResult notice =
        t.stub(NotificationActivities.class).notifyCustomer(receiptNotice("bounce@example.com"));

    assertThat(recorded).isEqualTo(new RecordResult(2, false, true));
    assertThat(notice)
        .isEqualTo(
            new NotifyCustomerResult(
                RECEIPT_ID, true, true, "550 5.1.1 <bounce@example.com>: mailbox unavailable"));
    assertThat(t.mail.received()).isEmpty();
    assertThat(t.dynamo.notificationLog.messagesOf("acc-1", "sub-1"))
        .singleElement()
        .extracting(LoggedNotification::status)
        .isEqualTo(NotificationStatus.BOUNCED);
  }

  /**
   * A returned charge's reversing receipt (negative) is stored with its change, never mailed: not
   * even under the receipt's message id while the first mail is still owed (the notice sends that).
   */
  @Test
  void aReversingReceiptIsStoredButNotMailedAsAReceipt() {
    RecordInput paid = paid("ana@example.com");
    t.mail.stop();
    records.record(paid);
    t.mail.start();
    Instant returnedAt = PAID_AT.plusSeconds(2 * 86_400);
    Receipt first = paid.receipt();
    Receipt reversal =
        new Receipt(
            first.accountId(),
            first.subscriptionId(),
            first.cycle(),
            first.sku(),
            first.email(),
            Money.zero("USD").minus(first.amount()),
            returnedAt,
            first.transactionId(),
            first.paymentMask(),
            null);
    RecordInput returned =
        new RecordInput(
            "upgrade/returned",
            paid.next(),
            paid.next().withVersion(3),
            HistoryEvent.PAYMENT_RETURNED,
            Process.WEBHOOK,
            "system",
            "returned",
            null,
            reversal,
            returnedAt);

    RecordResult recorded = records.record(returned);

    assertThat(recorded).isEqualTo(new RecordResult(3, false, false));
    assertThat(
            t.dynamo.store.getReceiptsByAccount("acc-1", returnedAt, PageRequest.first(10)).items())
        .extracting(r -> r.amount())
        .contains(Money.parse("-9.99", "USD"));
    assertThat(t.mail.received()).isEmpty();
  }

  /**
   * An upgrade charge that succeeded after the subscription ended is recorded with the refund of
   * all of it about to be sent: its receipt is stored (the money was taken) but not mailed as a
   * purchase; the refund notice tells the customer.
   */
  @Test
  void aChargeRecordedWithItsRefundIsStoredButNotMailed() {
    RecordInput paid = paid("ana@example.com");
    records.record(paid);
    int mailed = t.mail.received().size();
    Instant at = PAID_AT.plusSeconds(86_400);
    Receipt upgrade =
        new Receipt(
            "acc-1",
            "sub-1",
            1,
            "pro-max",
            "ana@example.com",
            Money.parse("8.39", "USD"),
            at,
            "sbx_ch_upgrade",
            paid.receipt().paymentMask(),
            null);
    RecordInput chargedAfterEnd =
        new RecordInput(
            "upgrade-after-end/v3",
            paid.next(),
            paid.next().withVersion(3),
            HistoryEvent.REFUND_REQUESTED,
            Process.RECONCILIATION,
            "system",
            "the upgrade charge succeeded after the subscription ended; all of it is refunded",
            null,
            upgrade,
            at);

    assertThat(records.record(chargedAfterEnd)).isEqualTo(new RecordResult(3, false, false));
    assertThat(t.dynamo.store.getReceiptsByAccount("acc-1", at, PageRequest.first(10)).items())
        .extracting(r -> r.transactionId())
        .contains("sbx_ch_upgrade");
    assertThat(t.mail.received()).hasSize(mailed);
  }
}
