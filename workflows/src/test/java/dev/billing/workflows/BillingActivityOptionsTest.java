package dev.billing.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.workflows.activities.PaymentFailures;
import io.temporal.activity.ActivityOptions;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class BillingActivityOptionsTest {

  @Test
  void recordChangeRetriesForeverWithBackoffCappedAtAMinute() {
    ActivityOptions options = BillingActivityOptions.RECORD_CHANGE;

    assertThat(options.getStartToCloseTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(options.getRetryOptions().getInitialInterval()).isEqualTo(Duration.ofSeconds(1));
    assertThat(options.getRetryOptions().getBackoffCoefficient()).isEqualTo(2.0);
    assertThat(options.getRetryOptions().getMaximumInterval()).isEqualTo(Duration.ofMinutes(1));
    assertThat(options.getRetryOptions().getMaximumAttempts()).isZero();
  }

  @Test
  void chargeIsCalledAtMostSixTimesAndNeverRetriesADecline() {
    ActivityOptions options = BillingActivityOptions.CHARGE_PAYMENT_METHOD;

    assertThat(options.getStartToCloseTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(options.getRetryOptions().getInitialInterval()).isEqualTo(Duration.ofSeconds(2));
    assertThat(options.getRetryOptions().getMaximumInterval()).isEqualTo(Duration.ofMinutes(1));
    assertThat(options.getRetryOptions().getMaximumAttempts()).isEqualTo(6);
    assertThat(options.getRetryOptions().getDoNotRetry())
        .containsExactly(PaymentFailures.DECLINED, PaymentFailures.DECLINED_HARD);
  }

  @Test
  void paymentActivitiesHaveTheirOwnQueueBesideTheWorkflows() {
    assertThat(TaskQueues.payments(TaskQueues.BILLING)).isEqualTo("billing-payments");
    assertThat(TaskQueues.payments("billing-eu")).isEqualTo("billing-eu-payments");
  }

  @Test
  void lookupIsRetriedLikeACharge() {
    ActivityOptions options = BillingActivityOptions.LOOK_UP_CHARGE;

    assertThat(options.getStartToCloseTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(options.getRetryOptions().getInitialInterval()).isEqualTo(Duration.ofSeconds(2));
    assertThat(options.getRetryOptions().getMaximumAttempts()).isEqualTo(6);
    assertThat(options.getRetryOptions().getDoNotRetry()).isNullOrEmpty();
  }

  @Test
  void noticesGiveUpAfterTenMinutesSoTheyNeverHoldUpACycle() {
    ActivityOptions options = BillingActivityOptions.NOTIFY_CUSTOMER;

    assertThat(options.getScheduleToCloseTimeout()).isEqualTo(Duration.ofMinutes(10));
    assertThat(options.getStartToCloseTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(options.getRetryOptions().getMaximumAttempts()).isZero();
    assertThat(BillingActivityOptions.DUNNING_POLICY.getScheduleToCloseTimeout())
        .isEqualTo(Duration.ofSeconds(30));
    assertThat(BillingActivityOptions.DUNNING_POLICY.getRetryOptions().getMaximumAttempts())
        .isEqualTo(3);
  }

  @Test
  void reminderAttemptsEndAtTheDueInstantButGetAtLeastFiveSeconds() {
    assertThat(
            BillingActivityOptions.sendPaymentReminder(Duration.ofDays(3))
                .getScheduleToCloseTimeout())
        .isEqualTo(Duration.ofDays(3));
    assertThat(
            BillingActivityOptions.sendPaymentReminder(Duration.ofMillis(1200))
                .getScheduleToCloseTimeout())
        .isEqualTo(Duration.ofSeconds(5));
    assertThat(
            BillingActivityOptions.sendPaymentReminder(Duration.ofDays(3)).getStartToCloseTimeout())
        .isEqualTo(Duration.ofSeconds(30));
  }
}
