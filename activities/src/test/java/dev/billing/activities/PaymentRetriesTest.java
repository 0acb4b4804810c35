package dev.billing.activities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.sandbox.SandboxGateway;
import dev.billing.activities.payments.sandbox.SandboxPaymentMethods;
import dev.billing.domain.BillingIds;
import dev.billing.domain.Money;
import dev.billing.workflows.activities.ChargeInput;
import dev.billing.workflows.activities.ChargeResult;
import dev.billing.workflows.activities.PaymentActivities;
import dev.billing.workflows.activities.PaymentFailures;
import io.temporal.activity.ActivityOptions;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How Temporal's retry policy treats the failures PaymentActivitiesImpl raises (on the test
 * server).
 */
class PaymentRetriesTest {
  private static final String QUEUE = "payments-test";
  private static final Instant NOW = Instant.parse("2026-02-01T05:00:01.250Z");
  private static final String KEY = BillingIds.chargeKey("sub-1", 3, 1);

  private final SandboxGateway sandbox = new SandboxGateway(new MutableClock(NOW));
  private final FlakyGateway gateway = new FlakyGateway(sandbox);
  private TestWorkflowEnvironment env;
  private WorkflowClient client;

  @WorkflowInterface
  public interface ChargeWorkflow {
    @WorkflowMethod
    ChargeResult charge(ChargeInput input);
  }

  public static class ChargeWorkflowImpl implements ChargeWorkflow {
    private final PaymentActivities payments =
        Workflow.newActivityStub(
            PaymentActivities.class,
            ActivityOptions.newBuilder()
                .setStartToCloseTimeout(Duration.ofSeconds(10))
                .setRetryOptions(
                    RetryOptions.newBuilder()
                        .setInitialInterval(Duration.ofSeconds(1))
                        .setMaximumAttempts(5)
                        .build())
                .build());

    @Override
    public ChargeResult charge(ChargeInput input) {
      return payments.charge(input);
    }
  }

  @BeforeEach
  void start() {
    env = TestWorkflowEnvironment.newInstance();
    Worker worker = env.newWorker(QUEUE);
    worker.registerWorkflowImplementationTypes(ChargeWorkflowImpl.class);
    worker.registerActivitiesImplementations(new PaymentActivitiesImpl(gateway));
    env.start();
    client = env.getWorkflowClient();
  }

  @AfterEach
  void stop() {
    env.close();
  }

  @Test
  void anUnavailableGatewayIsRetriedWithTheSameKeyAndChargedOnce() {
    gateway.failNext(2);

    ChargeResult result = workflow().charge(input(SandboxPaymentMethods.VISA));

    assertThat(result).isEqualTo(new ChargeResult("ch_sb_df7ed1073d202b7f56451b81", NOW, false));
    assertThat(gateway.requests)
        .hasSize(3)
        .extracting(GatewayChargeRequest::idempotencyKey)
        .containsOnly(KEY);
    assertThat(sandbox.charges()).hasSize(1);
  }

  @Test
  void aDeclineIsNotRetried() {
    WorkflowFailedException failed =
        catchThrowableOfType(
            WorkflowFailedException.class,
            () -> workflow().charge(input(SandboxPaymentMethods.INSUFFICIENT_FUNDS)));

    ApplicationFailure cause =
        (ApplicationFailure) ((ActivityFailure) failed.getCause()).getCause();
    assertThat(cause.getType()).isEqualTo(PaymentFailures.DECLINED);
    assertThat(gateway.requests).hasSize(1);
  }

  @Test
  void aHardDeclineIsNotRetried() {
    WorkflowFailedException failed =
        catchThrowableOfType(
            WorkflowFailedException.class,
            () -> workflow().charge(input(SandboxPaymentMethods.CHARGE_DECLINED)));

    ApplicationFailure cause =
        (ApplicationFailure) ((ActivityFailure) failed.getCause()).getCause();
    assertThat(cause.getType()).isEqualTo(ActivityFailureTypes.PAYMENT_DECLINED_HARD);
    assertThat(gateway.requests).hasSize(1);
  }

  @Test
  void sandboxGatewayErrorsAreRetriedUntilTheChargeGoesThroughOnce() {
    ChargeResult result = workflow().charge(input(SandboxPaymentMethods.transientErrors(2)));

    assertThat(result).isEqualTo(new ChargeResult("ch_sb_df7ed1073d202b7f56451b81", NOW, false));
    assertThat(gateway.requests).hasSize(3);
    assertThat(sandbox.charges()).hasSize(1);
  }

  @Test
  void aRetryAfterATimeoutThatChargedReplaysTheChargeInsteadOfChargingAgain() {
    ChargeResult result = workflow().charge(input(SandboxPaymentMethods.TIMEOUT_AFTER_CHARGE));

    assertThat(result).isEqualTo(new ChargeResult("ch_sb_df7ed1073d202b7f56451b81", NOW, true));
    assertThat(gateway.requests)
        .hasSize(2)
        .extracting(GatewayChargeRequest::idempotencyKey)
        .containsOnly(KEY);
    assertThat(sandbox.charges()).hasSize(1);
  }

  private ChargeWorkflow workflow() {
    return client.newWorkflowStub(
        ChargeWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(QUEUE).setWorkflowId("charge-sub-1-3").build());
  }

  private static ChargeInput input(String token) {
    return new ChargeInput(
        "acc-1",
        "sub-1",
        3,
        1,
        new Money(999, "USD"),
        SandboxPaymentMethods.paymentMethod(token),
        KEY,
        "pro-monthly, cycle 3");
  }
}
