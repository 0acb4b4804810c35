package dev.billing.activities;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.activities.notifications.Notification;
import dev.billing.activities.notifications.NotificationKind;
import dev.billing.activities.notifications.OutboxNotifier;
import dev.billing.domain.Money;
import dev.billing.workflows.activities.NotifyCustomerInput;
import dev.billing.workflows.activities.NotifyCustomerResult;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class NotificationActivitiesImplTest {

  private final OutboxNotifier outbox = new OutboxNotifier();
  private final NotificationActivitiesImpl activities = new NotificationActivitiesImpl(outbox);

  private static NotifyCustomerInput failed(LocalDate nextRetry) {
    return new NotifyCustomerInput(NotifyCustomerInput.Kind.PAYMENT_FAILED, "<payment-failed.3.1.sub-1@billing>",
        "acc-1", "sub-1", 3, "ana@example.com", "pro-monthly", Money.parse("9.99", "USD"), nextRetry,
        "Visa •••• 4242", "Your card has insufficient funds.", "Europe/Paris",
        Instant.parse("2026-03-31T22:00:00Z"));
  }

  @Test
  void aFailedPaymentNoticeNamesTheAmountTheMethodTheReasonAndTheNextRetry() {
    NotifyCustomerResult result = activities.notifyCustomer(failed(LocalDate.of(2026, 4, 2)));

    assertThat(result).isEqualTo(new NotifyCustomerResult("<payment-failed.3.1.sub-1@billing>", false));
    Notification sent = outbox.sent().get(0);
    assertThat(sent.kind()).isEqualTo(NotificationKind.PAYMENT_FAILED);
    assertThat(sent.to()).isEqualTo("ana@example.com");
    assertThat(sent.at()).isEqualTo(Instant.parse("2026-03-31T22:00:00Z"));
    assertThat(sent.subject()).isEqualTo("Your pro-monthly payment of 9.99 USD did not go through");
    assertThat(sent.textBody()).isEqualTo("Hello,\n\nwe could not charge 9.99 USD to Visa •••• 4242 for"
        + " your pro-monthly subscription. The bank said: Your card has insufficient funds.\n"
        + "We will try again on 2026-04-02. Updating your payment method retries at once.\n");
  }

  @Test
  void theLastFailureSaysNoRetryIsLeft() {
    activities.notifyCustomer(failed(null));

    assertThat(outbox.sent().get(0).textBody()).contains("We will not try again.");
  }

  @Test
  void aRetriedNoticeIsNotSentTwice() {
    activities.notifyCustomer(failed(LocalDate.of(2026, 4, 2)));
    NotifyCustomerResult again = activities.notifyCustomer(failed(LocalDate.of(2026, 4, 2)));

    assertThat(again.duplicate()).isTrue();
    assertThat(outbox.sent()).hasSize(1);
  }
}
