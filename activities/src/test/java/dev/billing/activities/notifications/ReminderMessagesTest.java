package dev.billing.activities.notifications;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.Money;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class ReminderMessagesTest {

  @Test
  void rendersAmountDateAndMask() {
    RenderedMessage message = ReminderMessages.paymentReminder(
        "pro-monthly", new Money(999, "USD"), LocalDate.of(2026, 2, 1), "Visa •••• 4242");

    assertThat(message.subject()).isEqualTo("Your pro-monthly payment of 9.99 USD is due on 2026-02-01");
    assertThat(message.textBody()).isEqualTo("""
        Hello,

        your pro-monthly subscription renews on 2026-02-01.
        We will charge 9.99 USD to Visa •••• 4242 on that day.

        If your payment details are up to date, there is nothing to do.
        """);
  }

  @Test
  void withoutAMaskNamesThePaymentMethodOnFile() {
    RenderedMessage message = ReminderMessages.paymentReminder(
        "yearly", new Money(120, "JPY"), LocalDate.of(2027, 1, 31), null);

    assertThat(message.textBody())
        .contains("We will charge 120 JPY to your payment method on file on that day.");
  }
}
