package dev.billing.activities.payments.stripe;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.billing.activities.PaymentActivitiesImpl;
import dev.billing.activities.payments.GatewayRefund;
import dev.billing.activities.payments.IdempotencyConflictException;
import dev.billing.activities.payments.InvalidGatewayRequestException;
import dev.billing.activities.payments.RefundRequest;
import dev.billing.domain.Money;
import dev.billing.workflows.activities.PaymentFailures;
import dev.billing.workflows.activities.RefundInput;
import dev.billing.workflows.activities.RefundResult;
import io.temporal.api.common.v1.Payload;
import io.temporal.common.converter.DataConverter;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.failure.ApplicationFailure;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** StripeGateway's refunds against a WireMock Stripe: the Refund's own status decides. */
class StripeRefundsTest extends StripeStubTest {
  private static final String REFUND_KEY = "refund:sub-1:3:1";
  private static final String REFUND_ID = "re_3QxTestRefund01";
  private static final Money HALF = new Money(500, "USD");
  private static final Instant AT = StripeJson.CREATED_AT.plusSeconds(60);

  @Test
  void refundsThePaymentIntentWithItsOwnKey() {
    stubRefund("succeeded", null);

    GatewayRefund refund = gateway.refund(request(HALF));

    assertThat(refund).isEqualTo(new GatewayRefund(REFUND_ID, HALF, AT, false));
    stripe.verify(
        1,
        postRequestedFor(urlEqualTo("/v1/refunds"))
            .withHeader("Idempotency-Key", equalTo(REFUND_KEY))
            .withFormParam("payment_intent", equalTo(StripeJson.INTENT))
            .withFormParam("amount", equalTo("500"))
            .withFormParam("reason", equalTo("requested_by_customer"))
            .withFormParam("metadata[idempotencyKey]", equalTo(REFUND_KEY)));
  }

  @ParameterizedTest
  @ValueSource(strings = {"pending", "requires_action"})
  void aRefundStripeHasNotFinishedIsAcceptedButPending(String status) {
    stubRefund(status, null);

    GatewayRefund refund = gateway.refund(request(HALF));

    assertThat(refund).isEqualTo(new GatewayRefund(REFUND_ID, HALF, AT, true));
  }

  @ParameterizedTest
  @ValueSource(strings = {"failed", "canceled"})
  void aFailedOrCanceledRefundIsRefused(String status) {
    stubRefund(status, "failed".equals(status) ? "expired_or_canceled_card" : null);

    assertThatThrownBy(() -> gateway.refund(request(HALF)))
        .isInstanceOfSatisfying(
            InvalidGatewayRequestException.class,
            e -> {
              assertThat(e.code()).isEqualTo("refund_failed");
              assertThat(e.getMessage()).contains(REFUND_ID).contains(status);
            });
  }

  @Test
  void theActivityCarriesThePendingFlagIntoTheWorkflowsResult() {
    stubRefund("pending", null);

    RefundResult result = new PaymentActivitiesImpl(gateway).refund(input());

    assertThat(result).isEqualTo(new RefundResult(REFUND_ID, HALF, AT, true));
  }

  @Test
  void theActivityReportsAFailedRefundAsRefused() {
    stubRefund("failed", "insufficient_funds");

    assertThatThrownBy(() -> new PaymentActivitiesImpl(gateway).refund(input()))
        .isInstanceOfSatisfying(
            ApplicationFailure.class,
            e -> {
              assertThat(e.getType()).isEqualTo(PaymentFailures.REFUND_REFUSED);
              assertThat(e.isNonRetryable()).isTrue();
            });
  }

  @Test
  void aRefundResultRecordedBeforeTheFlagExistedReadsAsDone() {
    // Histories hold RefundResult payloads without "pending": they must replay as done refunds.
    DataConverter converter = DefaultDataConverter.newDefaultInstance();
    Payload recorded =
        converter.toPayload(new RefundResult(REFUND_ID, HALF, AT, true)).orElseThrow();
    String withoutFlag = recorded.getData().toStringUtf8().replaceAll(",?\"pending\":true", "");
    Payload old = recorded.toBuilder().setData(ByteString.copyFromUtf8(withoutFlag)).build();

    assertThat(withoutFlag).doesNotContain("pending");
    assertThat(converter.fromPayload(old, RefundResult.class, RefundResult.class))
        .isEqualTo(new RefundResult(REFUND_ID, HALF, AT));
  }

  @Test
  void aRefundKeyReusedWithAnotherAmountIsAnIdempotencyConflict() {
    stubRefund("succeeded", null);
    gateway.refund(request(HALF));

    assertThatThrownBy(() -> gateway.refund(request(new Money(600, "USD"))))
        .isInstanceOf(IdempotencyConflictException.class);
  }

  @Test
  void aRefundLargerThanWhatIsLeftIsAnInvalidRequest() {
    stripe.stubFor(
        post(urlEqualTo("/v1/refunds"))
            .willReturn(
                json(
                    400,
                    StripeJson.invalidRequest(
                        "amount_too_large",
                        "amount",
                        "Refund amount ($10.00) is greater than unrefunded amount on charge ($9.99)"))));

    assertThatThrownBy(
            () ->
                gateway.refund(
                    new RefundRequest(REFUND_KEY, StripeJson.INTENT, new Money(1000, "USD"), null)))
        .isInstanceOfSatisfying(
            InvalidGatewayRequestException.class,
            e -> assertThat(e.code()).isEqualTo("amount_too_large"));
  }

  private void stubRefund(String status, String failureReason) {
    stripe.stubFor(
        post(urlEqualTo("/v1/refunds"))
            .willReturn(
                ok(
                    StripeJson.refund(
                        REFUND_ID,
                        StripeJson.INTENT,
                        500,
                        StripeJson.CREATED + 60,
                        REFUND_KEY,
                        status,
                        failureReason))));
  }

  private static RefundRequest request(Money amount) {
    return new RefundRequest(
        REFUND_KEY, StripeJson.INTENT, amount, RefundRequest.Reason.REQUESTED_BY_CUSTOMER);
  }

  private static RefundInput input() {
    return new RefundInput(
        "acc-1", "sub-1", 3, StripeJson.INTENT, HALF, REFUND_KEY, "late delivery");
  }
}
