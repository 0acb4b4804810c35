package dev.billing.workflows.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.Money;
import dev.billing.domain.Subscription;
import dev.billing.workflows.activities.NotifyCustomerInput;
import dev.billing.workflows.activities.NotifyCustomerInput.Kind;
import io.temporal.api.common.v1.Payload;
import io.temporal.common.converter.DefaultDataConverter;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

/** A notice built by name is the record it always was, and its payload keeps its JSON shape. */
class NoticeBuilderTest {

  @Test
  void theBuilderFillsTheSubscriptionsFieldsAndTheCallSiteNamesTheRest() {
    Subscription sub = ChangeRulesTest.active();
    Instant at = Instant.parse("2028-02-01T10:00:00Z");
    NotifyCustomerInput built = NotifyCustomerInput.about(Kind.PAYMENT_FAILED, sub)
        .messageId("m-1").cycle(1).amount(Money.parse("10.00", "USD"))
        .date(LocalDate.parse("2028-02-04")).reason("insufficient funds").at(at).build();
    assertThat(built).isEqualTo(new NotifyCustomerInput(Kind.PAYMENT_FAILED, "m-1", "acct-1", "sub-1", 1,
        "a@example.com", "basic", Money.parse("10.00", "USD"), LocalDate.parse("2028-02-04"), "visa-4242",
        "insufficient funds", "UTC", at, "en-US"));
  }

  @Test
  void itsPayloadNamesTheRecordsFieldsOnly() {
    NotifyCustomerInput notice = NotifyCustomerInput.about(Kind.PLAN_CHANGED, ChangeRulesTest.active())
        .messageId("m-2").sku("pro").paymentMask("visa-1111").at(Instant.EPOCH).build();
    Payload payload = DefaultDataConverter.newDefaultInstance().toPayload(notice).orElseThrow();
    String json = payload.getData().toStringUtf8();
    assertThat(json).startsWith("{\"kind\":\"PLAN_CHANGED\",\"messageId\":\"m-2\",\"accountId\":\"acct-1\"")
        .contains("\"sku\":\"pro\"", "\"paymentMask\":\"visa-1111\"", "\"locale\":\"en-US\"")
        .doesNotContain("builder", "sub\"");
    assertThat(DefaultDataConverter.newDefaultInstance().fromPayload(payload, NotifyCustomerInput.class,
        NotifyCustomerInput.class)).isEqualTo(notice);
  }
}
