package dev.billing.workflows.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.Money;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.workflows.activities.ChargeInput;
import dev.billing.workflows.activities.NotifyCustomerInput;
import dev.billing.workflows.activities.NotifyCustomerInput.Kind;
import dev.billing.workflows.activities.RefundInput;
import dev.billing.workflows.activities.SendReminderInput;
import io.temporal.api.common.v1.Payload;
import io.temporal.common.converter.DefaultDataConverter;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

/**
 * Activity inputs built by name are the records they always were; their payloads keep their JSON
 * shape.
 */
class NamedActivityInputsTest {

  @Test
  void theBuilderFillsTheSubscriptionsFieldsAndTheCallSiteNamesTheRest() {
    Subscription sub = ChangeRulesTest.active();
    Instant at = Instant.parse("2028-02-01T10:00:00Z");
    NotifyCustomerInput built =
        NotifyCustomerInput.about(Kind.PAYMENT_FAILED, sub)
            .messageId("m-1")
            .cycle(1)
            .amount(Money.parse("10.00", "USD"))
            .date(LocalDate.parse("2028-02-04"))
            .reason("insufficient funds")
            .at(at)
            .build();
    assertThat(built)
        .isEqualTo(
            new NotifyCustomerInput(
                Kind.PAYMENT_FAILED,
                "m-1",
                "acct-1",
                "sub-1",
                1,
                "a@example.com",
                "basic",
                Money.parse("10.00", "USD"),
                LocalDate.parse("2028-02-04"),
                "visa-4242",
                "insufficient funds",
                "UTC",
                at,
                "en-US"));
  }

  @Test
  void itsPayloadNamesTheRecordsFieldsOnly() {
    NotifyCustomerInput notice =
        NotifyCustomerInput.about(Kind.PLAN_CHANGED, ChangeRulesTest.active())
            .messageId("m-2")
            .sku("pro")
            .paymentMask("visa-1111")
            .at(Instant.EPOCH)
            .build();
    Payload payload = DefaultDataConverter.newDefaultInstance().toPayload(notice).orElseThrow();
    String json = payload.getData().toStringUtf8();
    assertThat(json)
        .startsWith("{\"kind\":\"PLAN_CHANGED\",\"messageId\":\"m-2\",\"accountId\":\"acct-1\"")
        .contains("\"sku\":\"pro\"", "\"paymentMask\":\"visa-1111\"", "\"locale\":\"en-US\"")
        .doesNotContain("builder", "sub\"");
    assertThat(
            DefaultDataConverter.newDefaultInstance()
                .fromPayload(payload, NotifyCustomerInput.class, NotifyCustomerInput.class))
        .isEqualTo(notice);
  }

  @Test
  void chargesRefundsAndRemindersNameTheirFields() {
    Subscription sub = ChangeRulesTest.active();
    Money ten = Money.parse("10.00", "USD");
    PaymentMethod card = sub.paymentMethod();
    assertThat(ChargeInput.ofPeriod(sub, 2, 1, ten, "charge:sub-1:2:1"))
        .isEqualTo(
            new ChargeInput(
                "acct-1",
                "sub-1",
                2,
                1,
                ten,
                card,
                "charge:sub-1:2:1",
                "basic subscription, period 2 due 2028-02-15"));
    assertThat(ChargeInput.ofUpgrade(sub, 1, "pro", ten, "change:sub-1:r1"))
        .isEqualTo(
            new ChargeInput(
                "acct-1",
                "sub-1",
                1,
                0,
                ten,
                card,
                "change:sub-1:r1",
                "upgrade to pro, rest of period 1"));
    assertThat(
            RefundInput.of(sub, 1)
                .ofCharge("ch_1")
                .amount(ten)
                .idempotencyKey("refund:sub-1:1:r2")
                .reason("asked")
                .build())
        .isEqualTo(
            new RefundInput("acct-1", "sub-1", 1, "ch_1", ten, "refund:sub-1:1:r2", "asked"));
    RecordInput record =
        SubscriptionChanges.reminderSent(sub, "m-3", Instant.parse("2028-02-12T00:00:00Z"));
    assertThat(SendReminderInput.of(sub, 2, "m-3", record))
        .isEqualTo(
            new SendReminderInput(
                "m-3",
                "a@example.com",
                "basic",
                sub.amountDueFor(2),
                LocalDate.parse("2028-02-15"),
                "visa-4242",
                record));
  }
}
