package dev.billing.workflows.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.workflows.activities.DeclineDetails;
import dev.billing.workflows.activities.PaymentFailures;
import io.temporal.api.enums.v1.RetryState;
import io.temporal.api.enums.v1.TimeoutType;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.TimeoutFailure;
import org.junit.jupiter.api.Test;

/** How the workflow reads a failed charge: a decline, an outage, or another refusal. */
class ChargeFailureTest {

  private static ActivityFailure failed(Throwable cause, RetryState retryState) {
    return new ActivityFailure(
        "activity failed", 5, 6, "ChargePaymentMethod", "7", retryState, "worker@host", cause);
  }

  @Test
  void declineCarriesTheGatewaysCodeAndMessage() {
    ChargeFailure failure =
        ChargeFailure.of(
            failed(
                ApplicationFailure.newNonRetryableFailure(
                    "declined",
                    PaymentFailures.DECLINED,
                    new DeclineDetails("insufficient_funds", "Insufficient funds.")),
                RetryState.RETRY_STATE_NON_RETRYABLE_FAILURE));

    assertThat(failure)
        .isEqualTo(new ChargeFailure(true, "insufficient_funds", "Insufficient funds."));
  }

  @Test
  void declineWithoutDetailsFallsBackToAGenericCode() {
    ChargeFailure failure =
        ChargeFailure.of(
            failed(
                ApplicationFailure.newNonRetryableFailure("card refused", PaymentFailures.DECLINED),
                RetryState.RETRY_STATE_NON_RETRYABLE_FAILURE));

    assertThat(failure).isEqualTo(new ChargeFailure(true, "declined", "card refused"));
  }

  @Test
  void gatewayErrorsThatOutlastTheRetriesAreGatewayUnavailable() {
    ChargeFailure failure =
        ChargeFailure.of(
            failed(
                ApplicationFailure.newFailure(
                    "gateway answered 502", PaymentFailures.GATEWAY_UNAVAILABLE),
                RetryState.RETRY_STATE_MAXIMUM_ATTEMPTS_REACHED));

    assertThat(failure)
        .isEqualTo(
            new ChargeFailure(
                false, "gateway_unavailable", "no answer from the gateway: gateway answered 502"));
  }

  @Test
  void anIdempotencyConflictIsAnUnknownOutcomeNotARejection() {
    ChargeFailure failure =
        ChargeFailure.of(
            failed(
                ApplicationFailure.newNonRetryableFailure(
                    "key reused with other parameters", PaymentFailures.IDEMPOTENCY_CONFLICT),
                RetryState.RETRY_STATE_NON_RETRYABLE_FAILURE));

    assertThat(failure.declined()).isFalse();
    assertThat(failure.outcomeUnknown())
        .as("a request with the key exists: ask the gateway")
        .isTrue();
  }

  @Test
  void aTimeoutIsGatewayUnavailable() {
    ChargeFailure failure =
        ChargeFailure.of(
            failed(
                new TimeoutFailure(
                    "activity StartToClose timeout", null, TimeoutType.TIMEOUT_TYPE_START_TO_CLOSE),
                RetryState.RETRY_STATE_MAXIMUM_ATTEMPTS_REACHED));

    assertThat(failure.declined()).isFalse();
    assertThat(failure.code()).isEqualTo("gateway_unavailable");
  }

  @Test
  void anotherNonRetryableRefusalKeepsItsType() {
    ChargeFailure failure =
        ChargeFailure.of(
            failed(
                ApplicationFailure.newNonRetryableFailure(
                    "key reused with another amount", "InvalidGatewayRequest"),
                RetryState.RETRY_STATE_NON_RETRYABLE_FAILURE));

    assertThat(failure)
        .isEqualTo(
            new ChargeFailure(
                false, "charge_rejected", "InvalidGatewayRequest: key reused with another amount"));
  }

  @Test
  void aHardDeclineIsADeclineThatSkipsTheRetriesAndOnlyAnOutageLeavesTheOutcomeUnknown() {
    ChargeFailure hard =
        ChargeFailure.of(
            failed(
                ApplicationFailure.newNonRetryableFailure(
                    "stolen",
                    PaymentFailures.DECLINED_HARD,
                    new DeclineDetails("stolen_card", "The card was reported stolen.")),
                RetryState.RETRY_STATE_NON_RETRYABLE_FAILURE));
    ChargeFailure outage =
        ChargeFailure.of(
            failed(
                ApplicationFailure.newFailure(
                    "gateway answered 502", PaymentFailures.GATEWAY_UNAVAILABLE),
                RetryState.RETRY_STATE_MAXIMUM_ATTEMPTS_REACHED));
    ChargeFailure rejected =
        ChargeFailure.of(
            failed(
                ApplicationFailure.newNonRetryableFailure("bad request", "InvalidGatewayRequest"),
                RetryState.RETRY_STATE_NON_RETRYABLE_FAILURE));

    assertThat(hard)
        .isEqualTo(new ChargeFailure(true, "stolen_card", "The card was reported stolen.", true));
    assertThat(hard.outcomeUnknown()).isFalse();
    assertThat(outage.hard()).isFalse();
    assertThat(outage.outcomeUnknown()).isTrue();
    assertThat(rejected.outcomeUnknown()).as("refused: the money did not move").isFalse();
  }
}
