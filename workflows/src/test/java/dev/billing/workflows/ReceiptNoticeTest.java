package dev.billing.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Money;
import dev.billing.domain.Term;
import dev.billing.workflows.activities.NotifyCustomerInput;
import java.time.LocalDate;
import java.time.YearMonth;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The receipt goes out with its record; only when that delivery failed does the workflow send it.
 */
@Timeout(60)
class ReceiptNoticeTest {

  private static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 0);

  @Test
  void aReceiptDeliveredWithItsRecordCostsNoNotice() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.start(BillingTestEnvironment.requested("sub-rcpt", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-16T00:00:00Z");

      assertThat(t.fake.charges()).hasSize(1);
      assertThat(t.fake.notices()).isEmpty();
    }
  }

  @Test
  void aReceiptTheRecordCouldNotDeliverIsSentByItsOwnActivity() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.receiptsUndelivered();
      t.start(BillingTestEnvironment.requested("sub-rcpt2", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-16T00:00:00Z");

      assertThat(t.fake.notices())
          .singleElement()
          .satisfies(
              call -> {
                NotifyCustomerInput notice = call.input();
                assertThat(notice.kind()).isEqualTo(NotifyCustomerInput.Kind.PAYMENT_RECEIPT);
                assertThat(notice.messageId())
                    .isEqualTo("<receipt-txn_sub-rcpt2_1.1.sub-rcpt2@billing>");
                assertThat(notice.amount()).isEqualTo(Money.parse("9.99", "USD"));
                assertThat(notice.date()).isEqualTo(LocalDate.of(2028, 1, 15));
                assertThat(notice.reason()).isEqualTo("txn_sub-rcpt2_1");
              });
    }
  }
}
