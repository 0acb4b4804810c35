package dev.billing.activities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.sandbox.SandboxGateway;
import dev.billing.activities.payments.sandbox.SandboxPaymentMethods;
import dev.billing.domain.BillingIds;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentMethod;
import dev.billing.workflows.activities.ChargeInput;
import dev.billing.workflows.activities.ChargeLookup;
import dev.billing.workflows.activities.ChargeLookup.Status;
import dev.billing.workflows.activities.ChargeLookupInput;
import dev.billing.workflows.activities.ChargeResult;
import dev.billing.workflows.activities.DeclineDetails;
import dev.billing.workflows.activities.PaymentActivities;
import dev.billing.workflows.activities.PaymentFailures;
import dev.billing.workflows.activities.RefundInput;
import dev.billing.workflows.activities.RefundResult;
import io.temporal.activity.ActivityOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestActivityEnvironment;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PaymentActivitiesImplTest {
  private static final Instant NOW = Instant.parse("2026-02-01T05:00:01.250Z");
  private static final Money PRICE = new Money(999, "USD");
  private static final String KEY = BillingIds.chargeKey("sub-1", 3, 1);
  // printf 'charge:sub-1:3:1' | sha256sum | cut -c1-24
  private static final String KEY_TXN = "ch_sb_df7ed1073d202b7f56451b81";

  private final MutableClock clock = new MutableClock(NOW);
  private final SandboxGateway sandbox = new SandboxGateway(clock);
  private final FlakyGateway gateway = new FlakyGateway(sandbox);
  private TestActivityEnvironment env;

  @BeforeEach
  void start() {
    env = TestActivityEnvironment.newInstance();
    env.registerActivitiesImplementations(new PaymentActivitiesImpl(gateway));
  }

  @AfterEach
  void stop() {
    env.close();
  }

  @Test
  void chargesWithTheWorkflowsKeyAndTagsTheCharge() {
    ChargeResult result = stub().charge(input(SandboxPaymentMethods.VISA));

    assertThat(result).isEqualTo(new ChargeResult(KEY_TXN, NOW, false));
    assertThat(gateway.requests)
        .containsExactly(
            new GatewayChargeRequest(
                KEY,
                PRICE,
                "pm_card_visa",
                "pro-monthly, cycle 3",
                Map.of("subscriptionId", "sub-1", "cycle", "3")));
  }

  @Test
  void refundsPartOfACollectedChargeOnceForTheSameKey() {
    ChargeResult charge = stub().charge(input(SandboxPaymentMethods.VISA));
    RefundInput refund =
        new RefundInput(
            "acc-1",
            "sub-1",
            3,
            charge.transactionId(),
            new Money(500, "USD"),
            BillingIds.refundKey("sub-1", 3, "req-7"),
            "late delivery");

    RefundResult first = stub().refund(refund);
    RefundResult again = stub().refund(refund);

    assertThat(first.amount()).isEqualTo(new Money(500, "USD"));
    assertThat(again).isEqualTo(first);
    assertThat(first.refundId()).isNotBlank();
  }

  @Test
  void aRefundOfMoreThanIsLeftIsRefusedWithoutRetry() {
    ChargeResult charge = stub().charge(input(SandboxPaymentMethods.VISA));
    RefundInput tooMuch =
        new RefundInput(
            "acc-1",
            "sub-1",
            3,
            charge.transactionId(),
            new Money(1000, "USD"),
            BillingIds.refundKey("sub-1", 3, "req-7"),
            null);

    ActivityFailure failure =
        catchThrowableOfType(ActivityFailure.class, () -> stub().refund(tooMuch));

    ApplicationFailure cause = (ApplicationFailure) failure.getCause();
    assertThat(cause.getType()).isEqualTo(PaymentFailures.REFUND_REFUSED);
    assertThat(cause.isNonRetryable()).isTrue();
  }

  @Test
  void aSecondCallWithTheSameKeyIsAReplay() {
    stub().charge(input(SandboxPaymentMethods.VISA));

    ChargeResult again = stub().charge(input(SandboxPaymentMethods.VISA));

    assertThat(again).isEqualTo(new ChargeResult(KEY_TXN, NOW, true));
    assertThat(sandbox.charges()).hasSize(1);
  }

  @Test
  void aSoftDeclineIsANonRetryablePaymentDeclinedWithItsDetails() {
    ActivityFailure failure =
        catchThrowableOfType(
            ActivityFailure.class,
            () -> stub().charge(input(SandboxPaymentMethods.INSUFFICIENT_FUNDS)));

    ApplicationFailure cause = (ApplicationFailure) failure.getCause();
    assertThat(cause.getType()).isEqualTo(PaymentFailures.DECLINED);
    assertThat(cause.isNonRetryable()).isTrue();
    assertThat(cause.getDetails().get(DeclineDetails.class))
        .isEqualTo(new DeclineDetails("insufficient_funds", "Your card has insufficient funds."));
    assertThat(cause.getOriginalMessage())
        .contains("sub-1")
        .contains("cycle 3")
        .contains("insufficient_funds")
        .contains("soft");
  }

  @Test
  void aHardDeclineIsANonRetryablePaymentDeclinedHardWithItsDetails() {
    ActivityFailure failure =
        catchThrowableOfType(
            ActivityFailure.class,
            () -> stub().charge(input(SandboxPaymentMethods.CHARGE_DECLINED)));

    ApplicationFailure cause = (ApplicationFailure) failure.getCause();
    assertThat(cause.getType())
        .isEqualTo("PaymentDeclinedHard")
        .isEqualTo(ActivityFailureTypes.PAYMENT_DECLINED_HARD);
    assertThat(cause.isNonRetryable()).isTrue();
    assertThat(cause.getDetails().get(DeclineDetails.class))
        .isEqualTo(new DeclineDetails("card_declined", "Your card was declined."));
    assertThat(cause.getOriginalMessage())
        .contains("sub-1")
        .contains("cycle 3")
        .contains("card_declined")
        .contains("hard");
  }

  @Test
  void aBankDebitIsPending() {
    ChargeResult result = stub().charge(input(SandboxPaymentMethods.BANK_DEBIT));

    assertThat(result).isEqualTo(new ChargeResult(KEY_TXN, NOW, false, true));
  }

  @Test
  void looksUpAKeyNeverChargedAsNotFound() {
    ChargeLookup lookup =
        stub().lookUpCharge(new ChargeLookupInput("sub-1", 3, KEY, null, java.time.Instant.EPOCH));

    assertThat(lookup).isEqualTo(new ChargeLookup(Status.NOT_FOUND, null, null, null, null));
  }

  @Test
  void aTimeoutAfterTheChargeIsRetryableAndTheLookUpFindsTheCharge() {
    ActivityFailure failure =
        catchThrowableOfType(
            ActivityFailure.class,
            () -> stub().charge(input(SandboxPaymentMethods.TIMEOUT_AFTER_CHARGE)));
    ApplicationFailure cause = (ApplicationFailure) failure.getCause();
    assertThat(cause.getType()).isEqualTo(PaymentFailures.GATEWAY_UNAVAILABLE);
    assertThat(cause.isNonRetryable()).isFalse();

    ChargeLookup lookup =
        stub().lookUpCharge(new ChargeLookupInput("sub-1", 3, KEY, null, java.time.Instant.EPOCH));
    ChargeResult retried = stub().charge(input(SandboxPaymentMethods.TIMEOUT_AFTER_CHARGE));

    assertThat(lookup).isEqualTo(new ChargeLookup(Status.SUCCEEDED, KEY_TXN, NOW, null, null));
    assertThat(retried).isEqualTo(new ChargeResult(KEY_TXN, NOW, true, false));
    assertThat(sandbox.charges()).hasSize(1);
  }

  @Test
  void looksUpABankDebitPendingThenSettledAtItsSettlementInstant() {
    stub().charge(input(SandboxPaymentMethods.BANK_DEBIT));
    ChargeLookupInput key = new ChargeLookupInput("sub-1", 3, KEY, null, java.time.Instant.EPOCH);

    ChargeLookup before = stub().lookUpCharge(key);
    clock.advance(Duration.ofDays(3));
    ChargeLookup after = stub().lookUpCharge(key);

    assertThat(before).isEqualTo(new ChargeLookup(Status.PENDING, KEY_TXN, NOW, null, null));
    assertThat(after)
        .isEqualTo(
            new ChargeLookup(
                Status.SUCCEEDED, KEY_TXN, Instant.parse("2026-02-04T05:00:01.250Z"), null, null));
  }

  @Test
  void looksUpAReturnedBankDebitWithItsReturnInstantAndCode() {
    stub().charge(input(SandboxPaymentMethods.BANK_DEBIT_RETURNED));
    clock.advance(Duration.ofDays(5));

    ChargeLookup lookup =
        stub().lookUpCharge(new ChargeLookupInput("sub-1", 3, KEY, null, java.time.Instant.EPOCH));

    assertThat(lookup)
        .isEqualTo(
            new ChargeLookup(
                Status.RETURNED,
                KEY_TXN,
                Instant.parse("2026-02-06T05:00:01.250Z"),
                "insufficient_funds",
                "The customer's bank returned the debit: insufficient funds."));
  }

  @Test
  void looksUpADeclineAsFailedWithItsCode() {
    catchThrowableOfType(
        ActivityFailure.class, () -> stub().charge(input(SandboxPaymentMethods.EXPIRED_CARD)));

    ChargeLookup lookup =
        stub().lookUpCharge(new ChargeLookupInput("sub-1", 3, KEY, null, java.time.Instant.EPOCH));

    assertThat(lookup)
        .isEqualTo(
            new ChargeLookup(
                Status.FAILED, KEY_TXN, NOW, "expired_card", "Your card has expired."));
  }

  @Test
  void anUnavailableGatewayDuringALookUpIsRetryable() {
    gateway.failNext(1);

    ActivityFailure failure =
        catchThrowableOfType(
            ActivityFailure.class,
            () ->
                stub()
                    .lookUpCharge(
                        new ChargeLookupInput("sub-1", 3, KEY, null, java.time.Instant.EPOCH)));

    ApplicationFailure cause = (ApplicationFailure) failure.getCause();
    assertThat(cause.getType()).isEqualTo(PaymentFailures.GATEWAY_UNAVAILABLE);
    assertThat(cause.isNonRetryable()).isFalse();
    assertThat(gateway.lookUps).containsExactly(KEY);
  }

  @Test
  void anUnavailableGatewayIsARetryableGatewayUnavailable() {
    gateway.failNext(5);

    ActivityFailure failure =
        catchThrowableOfType(
            ActivityFailure.class, () -> stub().charge(input(SandboxPaymentMethods.VISA)));

    ApplicationFailure cause = (ApplicationFailure) failure.getCause();
    assertThat(cause.getType()).isEqualTo(PaymentFailures.GATEWAY_UNAVAILABLE);
    assertThat(cause.isNonRetryable()).isFalse();
    assertThat(cause.getOriginalMessage()).contains("connection reset").contains(KEY);
    assertThat(sandbox.charges()).isEmpty();
  }

  @Test
  void aKeyReusedWithAnotherAmountIsANonRetryableIdempotencyConflict() {
    stub().charge(input(SandboxPaymentMethods.VISA));
    ChargeInput other =
        new ChargeInput(
            "acc-1",
            "sub-1",
            3,
            1,
            new Money(1999, "USD"),
            SandboxPaymentMethods.paymentMethod("pm_card_visa"),
            KEY,
            "pro-monthly, cycle 3");

    ActivityFailure failure =
        catchThrowableOfType(ActivityFailure.class, () -> stub().charge(other));

    ApplicationFailure cause = (ApplicationFailure) failure.getCause();
    assertThat(cause.getType()).isEqualTo(PaymentFailures.IDEMPOTENCY_CONFLICT);
    assertThat(cause.isNonRetryable()).isTrue();
    assertThat(cause.getOriginalMessage()).contains("(differs: amount)");
  }

  private PaymentActivities stub() {
    // TestActivityEnvironment runs one attempt and does not retry; PaymentRetriesTest covers
    // retries.
    return env.newActivityStub(
        PaymentActivities.class,
        ActivityOptions.newBuilder().setStartToCloseTimeout(Duration.ofSeconds(10)).build());
  }

  private static ChargeInput input(String token) {
    PaymentMethod method = SandboxPaymentMethods.paymentMethod(token);
    return new ChargeInput("acc-1", "sub-1", 3, 1, PRICE, method, KEY, "pro-monthly, cycle 3");
  }
}
