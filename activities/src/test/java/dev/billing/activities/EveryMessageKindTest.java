package dev.billing.activities;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.billing.activities.notifications.EmailNotifier;
import dev.billing.activities.notifications.Mails;
import dev.billing.activities.notifications.MessageTemplates;
import dev.billing.activities.notifications.SmtpMailer;
import dev.billing.activities.notifications.SmtpSettings;
import dev.billing.domain.BillingIds;
import dev.billing.domain.Money;
import dev.billing.domain.RecordResult;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.workflows.activities.NotificationActivities;
import dev.billing.workflows.activities.NotifyCustomerInput;
import dev.billing.workflows.activities.NotifyCustomerInput.Kind;
import dev.billing.workflows.activities.NotifyCustomerResult;
import dev.billing.workflows.activities.RecordActivities;
import dev.billing.workflows.activities.ReminderActivities;
import dev.billing.workflows.activities.SendReminderResult;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.testing.TestActivityEnvironment;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every kind of customer message, sent by the activity that sends it in production, through SMTP to
 * GreenMail, then read back from the server: recipient, Message-ID, exact subject and plain text
 * (amounts in the currency's format, dates on the subscription's calendar), and the HTML part.
 */
class EveryMessageKindTest {
  private static final String MASK = "Visa •••• 4242";

  /** 03:30 UTC on March 1 is still February 28 in New York and Los Angeles. */
  private static final Instant AT = Instant.parse("2026-03-01T03:30:00Z");

  /** An amount ($9.99, €99.00, ¥1,200) or a long en-US date (March 4, 2026). */
  private static final Pattern FORMATTED =
      Pattern.compile("[$€¥][0-9,.]+[0-9]|[A-Z][a-z]+ [0-9]{1,2}, [0-9]{4}");

  private static final AtomicLong CASES = new AtomicLong();

  @RegisterExtension
  static final GreenMailExtension GREEN_MAIL =
      new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

  private static LocalDynamo dynamo;
  private TestActivityEnvironment env;

  @BeforeAll
  static void startDynamo() {
    dynamo = new LocalDynamo();
  }

  @AfterAll
  static void stopDynamo() {
    dynamo.close();
  }

  @BeforeEach
  void startActivities() {
    SmtpSettings smtp =
        SmtpSettings.plain(
            "127.0.0.1", GREEN_MAIL.getSmtp().getPort(), "Billing <billing@example.com>");
    EmailNotifier notifier =
        new EmailNotifier(dynamo.notificationLog, new SmtpMailer(smtp), InstantSource.system());
    MessageTemplates templates = new MessageTemplates();
    env = TestActivityEnvironment.newInstance();
    env.registerActivitiesImplementations(
        new NotificationActivitiesImpl(notifier, templates),
        new ReminderActivitiesImpl(notifier, templates, dynamo.store),
        new RecordActivitiesImpl(dynamo.store, notifier, templates));
  }

  @AfterEach
  void stopActivities() {
    env.close();
  }

  private <T> T stub(Class<T> activities) {
    return env.newActivityStub(
        activities,
        ActivityOptions.newBuilder()
            .setStartToCloseTimeout(Duration.ofSeconds(30))
            .setRetryOptions(RetryOptions.newBuilder().setMaximumAttempts(1).build())
            .build());
  }

  private static NotifyCustomerInput notice(
      Kind kind, String sku, Money amount, LocalDate date, String reason) {
    // One cycle per case: the cases share the notification log, and each must be a new message.
    long cycle = CASES.incrementAndGet();
    return new NotifyCustomerInput(
        kind,
        BillingIds.messageId("sub-kinds", cycle, kind.name().toLowerCase()),
        Fixtures.ACCOUNT,
        "sub-kinds",
        cycle,
        "ana@example.com",
        sku,
        amount,
        date,
        MASK,
        reason,
        "America/New_York",
        AT,
        "en-US");
  }

  static Stream<Arguments> notices() {
    return Stream.of(
        Arguments.of(
            notice(
                Kind.PAYMENT_FAILED,
                "pro-monthly",
                Money.parse("9.99", "USD"),
                LocalDate.of(2026, 3, 4),
                "Your card has insufficient funds."),
            "Your pro-monthly payment of $9.99 did not go through",
            """
            Hello,

            we could not charge $9.99 to Visa •••• 4242 for your pro-monthly subscription. The bank said: Your card has insufficient funds.
            We will try again on March 4, 2026. Updating your payment method retries at once.
            """),
        Arguments.of(
            notice(
                Kind.PAYMENT_FAILED,
                "pro-monthly",
                Money.parse("1200", "JPY"),
                null,
                "Your card was declined."),
            "Your pro-monthly payment of ¥1,200 did not go through",
            """
            Hello,

            we could not charge ¥1,200 to Visa •••• 4242 for your pro-monthly subscription. The bank said: Your card was declined.
            We will not try again. Please update your payment method to keep your subscription.
            """),
        Arguments.of(
            notice(
                Kind.SUBSCRIPTION_CANCELLED,
                "pro-monthly",
                Money.parse("9.99", "EUR"),
                LocalDate.of(2026, 2, 28),
                "unpaid after the last retry"),
            "Your pro-monthly subscription is cancelled",
            """
            Hello,

            your pro-monthly subscription is cancelled as of February 28, 2026. Reason: unpaid after the last retry
            No further payments will be taken.
            """),
        // No date: the payment's date is the notice's instant on the subscription's calendar.
        Arguments.of(
            notice(
                Kind.PAYMENT_RECEIPT, "pro-monthly", Money.parse("1200", "JPY"), null, "sbx_ch_42"),
            "Receipt for your pro-monthly payment of ¥1,200",
            """
            Hello,

            thank you: we received your payment of ¥1,200 for your pro-monthly subscription.

            Amount:          ¥1,200
            Date:            February 28, 2026
            Payment method:  Visa •••• 4242
            Transaction:     sbx_ch_42

            Keep this email as your receipt.
            """),
        Arguments.of(
            notice(
                Kind.SUBSCRIPTION_PAUSED,
                "pro-monthly",
                Money.parse("9.99", "USD"),
                LocalDate.of(2026, 5, 1),
                null),
            "Your pro-monthly subscription is paused",
            """
            Hello,

            your pro-monthly subscription is paused: no payment is taken while it is.
            It resumes by itself on May 1, 2026.
            """),
        Arguments.of(
            notice(
                Kind.SUBSCRIPTION_RESUMED,
                "pro-monthly",
                Money.parse("9.99", "USD"),
                LocalDate.of(2026, 4, 1),
                null),
            "Your pro-monthly subscription is active again",
            """
            Hello,

            your pro-monthly subscription is active again.
            The next payment of $9.99 is on April 1, 2026.
            """),
        Arguments.of(
            notice(
                Kind.PLAN_CHANGED,
                "pro-yearly",
                Money.parse("99", "EUR"),
                LocalDate.of(2026, 4, 1),
                null),
            "Your plan is now pro-yearly",
            """
            Hello,

            your subscription is now on the pro-yearly plan at €99.00.
            The new price is charged from April 1, 2026 on.
            """),
        Arguments.of(
            notice(
                Kind.REFUND_ISSUED,
                "pro-monthly",
                Money.parse("4.5", "USD"),
                LocalDate.of(2026, 3, 2),
                null),
            "A refund of $4.50 is on its way",
            """
            Hello,

            we refunded $4.50 of your pro-monthly subscription to Visa •••• 4242 on March 2, 2026.
            It can take 5 to 10 business days to show on your statement.
            """),
        Arguments.of(
            notice(
                Kind.SUBSCRIPTION_EXPIRED,
                "pro-monthly",
                Money.parse("9.99", "USD"),
                null,
                "Your card has insufficient funds."),
            "Your pro-monthly subscription did not start",
            """
            Hello,

            your pro-monthly subscription did not start: we could not collect its first payment \
            of $9.99 from Visa •••• 4242. The bank said: Your card has insufficient funds.
            Nothing is owed and no further payment will be taken. To subscribe, sign up again \
            with another payment method.
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("notices")
  void aNoticeIsReceivedWithItsSubjectAmountAndDate(
      NotifyCustomerInput input, String subject, String text) throws Exception {
    NotifyCustomerResult result = stub(NotificationActivities.class).notifyCustomer(input);

    assertThat(result).isEqualTo(new NotifyCustomerResult(input.messageId(), false, false, null));
    MimeMessage mail = onlyMessage();
    assertThat(Mails.to(mail)).isEqualTo("ana@example.com");
    assertThat(mail.getFrom()[0].toString()).isEqualTo("Billing <billing@example.com>");
    assertThat(mail.getMessageID()).isEqualTo(input.messageId());
    assertThat(mail.getSentDate()).isEqualTo(Date.from(AT));
    assertThat(Mails.header(mail, "X-Billing-Kind")).isEqualTo(input.kind().name());
    assertThat(Mails.header(mail, "X-Billing-Subscription")).isEqualTo("sub-kinds");
    assertThat(Mails.header(mail, "Auto-Submitted")).isEqualTo("auto-generated");
    assertThat(Mails.subject(mail)).isEqualTo(subject);
    assertThat(Mails.text(mail)).isEqualTo(text);
    // The HTML part says the same, as a document titled with the subject.
    String html = Mails.html(mail);
    assertThat(html)
        .startsWith("<!DOCTYPE html>\n<html lang=\"en-US\">")
        .contains("<title>" + subject + "</title>");
    // Every amount and date of the text is in the HTML too.
    text.lines()
        .flatMap(
            line ->
                Stream.of(
                    FORMATTED.matcher(line).results().map(m -> m.group()).toArray(String[]::new)))
        .forEach(value -> assertThat(html).contains(value));
  }

  @Test
  void valuesAreEscapedInTheHtmlPartOnly() throws Exception {
    NotifyCustomerInput input =
        notice(
            Kind.PAYMENT_FAILED,
            "pro-monthly",
            Money.parse("9.99", "USD"),
            null,
            "Limit <exceeded> & blocked");

    stub(NotificationActivities.class).notifyCustomer(input);

    MimeMessage mail = onlyMessage();
    assertThat(Mails.text(mail)).contains("The bank said: Limit <exceeded> & blocked");
    assertThat(Mails.html(mail))
        .contains("The bank said: Limit &lt;exceeded&gt; &amp; blocked")
        .doesNotContain("<exceeded>");
  }

  @Test
  void thePaymentReminderNamesAmountDueDateAndMethod() throws Exception {
    Subscription subscription =
        Fixtures.subscription(
            "sub-reminder",
            Money.parse("9.99", "USD"),
            "America/New_York",
            SubscriptionStatus.ACTIVE,
            "en-US");
    dynamo.store.createSubscription(Fixtures.creation(subscription));

    SendReminderResult result =
        stub(ReminderActivities.class).sendReminder(Fixtures.reminderOf(subscription));

    assertThat(result)
        .isEqualTo(new SendReminderResult("<reminder.1.sub-reminder@billing>", false, 2));
    MimeMessage mail = onlyMessage();
    assertThat(Mails.to(mail)).isEqualTo("ana@example.com");
    assertThat(mail.getMessageID()).isEqualTo("<reminder.1.sub-reminder@billing>");
    assertThat(Mails.header(mail, "X-Billing-Kind")).isEqualTo("PAYMENT_REMINDER");
    assertThat(Mails.subject(mail))
        .isEqualTo("Your pro-monthly payment of $9.99 is due on February 1, 2026");
    assertThat(Mails.text(mail))
        .isEqualTo(
            """
        Hello,

        your pro-monthly subscription renews on February 1, 2026.
        We will charge $9.99 to Visa •••• 4242 on that day.

        If your payment details are up to date, there is nothing to do.
        """);
    assertThat(Mails.html(mail))
        .contains("<strong>$9.99</strong>", "<strong>February 1, 2026</strong>", "Visa •••• 4242");
  }

  @Test
  void aTrialSubscriptionsReminderSaysTheTrialEnds() throws Exception {
    Subscription trial =
        Fixtures.subscription(
            "sub-trial",
            Money.parse("9.99", "EUR"),
            "Europe/Paris",
            SubscriptionStatus.TRIALING,
            "en-US");
    dynamo.store.createSubscription(Fixtures.creation(trial));

    stub(ReminderActivities.class).sendReminder(Fixtures.reminderOf(trial));

    MimeMessage mail = onlyMessage();
    assertThat(Mails.header(mail, "X-Billing-Kind")).isEqualTo("TRIAL_ENDING");
    assertThat(Mails.subject(mail)).isEqualTo("Your pro-monthly trial ends on February 1, 2026");
    assertThat(Mails.text(mail))
        .isEqualTo(
            """
        Hello,

        your free trial of pro-monthly ends on February 1, 2026.
        From then on we will charge €9.99 every month to Visa •••• 4242, starting that day.

        To keep your subscription there is nothing to do. To stop before the first payment, cancel before February 1, 2026.
        """);
  }

  @Test
  void theReceiptGoesOutWithThePaymentsRecordDatedOnTheSubscriptionsCalendar() throws Exception {
    Subscription subscription =
        Fixtures.subscription(
            "sub-receipt",
            Money.parse("1200", "JPY"),
            "America/Los_Angeles",
            SubscriptionStatus.ACTIVE,
            "en-US");
    dynamo.store.createSubscription(Fixtures.creation(subscription));

    RecordResult result =
        stub(RecordActivities.class).record(Fixtures.paid(subscription, "sbx_ch_1", AT));

    assertThat(result).isEqualTo(new RecordResult(2, false, false));
    MimeMessage mail = onlyMessage();
    assertThat(Mails.to(mail)).isEqualTo("ana@example.com");
    assertThat(mail.getMessageID())
        .isEqualTo("<receipt-sbx_ch_1.1.sub-receipt@billing>")
        .isEqualTo(BillingIds.receiptMessageId("sub-receipt", 1, "sbx_ch_1"));
    assertThat(Mails.subject(mail)).isEqualTo("Receipt for your pro-monthly payment of ¥1,200");
    assertThat(Mails.text(mail))
        .contains(
            "Amount:          ¥1,200\n",
            "Date:            February 28, 2026\n",
            "Transaction:     sbx_ch_1\n");
    assertThat(
            dynamo
                .store
                .getReceiptsByAccount(Fixtures.ACCOUNT, AT, dev.billing.store.PageRequest.first(10))
                .items())
        .extracting(r -> r.transactionId())
        .contains("sbx_ch_1");
  }

  @Test
  void aChangeWithoutReceiptMailsNothing() {
    Subscription subscription =
        Fixtures.subscription(
            "sub-quiet", Money.parse("9.99", "USD"), "UTC", SubscriptionStatus.ACTIVE, "en-US");

    assertThat(stub(RecordActivities.class).record(Fixtures.creation(subscription)))
        .isEqualTo(new RecordResult(1, false, false));
    assertThat(GREEN_MAIL.getReceivedMessages()).isEmpty();
  }

  private static MimeMessage onlyMessage() {
    MimeMessage[] received = GREEN_MAIL.getReceivedMessages();
    assertThat(received).hasSize(1);
    return received[0];
  }
}
