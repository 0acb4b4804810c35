package dev.billing.api.subscriptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.api.errors.ApiProblem;
import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentEvent;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.BillingDayChange;
import dev.billing.workflows.BillingSearchAttributes;
import dev.billing.workflows.CancelRequest;
import dev.billing.workflows.CustomerChange;
import dev.billing.workflows.PauseRequest;
import dev.billing.workflows.PayNowRequest;
import dev.billing.workflows.PaymentMethodChange;
import dev.billing.workflows.PlanChangeRequest;
import dev.billing.workflows.ReactivateRequest;
import dev.billing.workflows.RefundRequest;
import dev.billing.workflows.ResumeRequest;
import dev.billing.workflows.SubscriptionInput;
import dev.billing.workflows.SubscriptionState;
import dev.billing.workflows.SubscriptionWorkflow;
import dev.billing.workflows.UpdateRejections;
import dev.billing.workflows.WaiveRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The bounded wait of a change: refused at once (validator), accepted but not finished in time
 * (202), not even accepted in time (503). Runs against a workflow that accepts a manual payment and
 * never finishes it, as a charge stuck at the gateway would.
 */
class ChangeStillRunningTest {

  private static final String QUEUE = "stuck-charges";

  private TestWorkflowEnvironment env;
  private SubscriptionWorkflows workflows;

  @BeforeEach
  void start() {
    env = TestWorkflowEnvironment.newInstance();
    for (var key : BillingSearchAttributes.ALL) {
      env.registerSearchAttribute(key.getName(), key.getValueType());
    }
    env.newWorker(QUEUE).registerWorkflowImplementationTypes(StuckChargeWorkflow.class);
    env.start();
    workflows = new SubscriptionWorkflows(env.getWorkflowClient(), QUEUE, Duration.ofSeconds(3));
    SubscriptionWorkflow stuck =
        env.getWorkflowClient()
            .newWorkflowStub(
                SubscriptionWorkflow.class,
                WorkflowOptions.newBuilder()
                    .setWorkflowId(BillingIds.workflowId("sub-stuck"))
                    .setTaskQueue(QUEUE)
                    .build());
    WorkflowClient.start(stuck::run, new SubscriptionInput(subscription(), true));
    // Its first task done before the bounded wait starts: on a slow machine it could eat the wait.
    stuck.state();
  }

  @AfterEach
  void stop() {
    // The stuck workflow never ends by itself; closing the server with it still running waits for
    // it.
    env.getWorkflowClient()
        .newUntypedWorkflowStub(BillingIds.workflowId("sub-stuck"))
        .terminate("test over");
    env.close();
  }

  @Test
  void anAcceptedChangeThatDoesNotFinishInTimeIsStillRunning() {
    long started = System.nanoTime();

    assertThatThrownBy(() -> workflows.payNow("sub-stuck", new PayNowRequest("api")))
        .isInstanceOfSatisfying(
            ChangeStillRunning.class, e -> assertThat(e.subscriptionId()).isEqualTo("sub-stuck"));
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(15));
  }

  @Test
  void aRefusedChangeIsReportedAsSuchNotAsATimeout() {
    assertThatThrownBy(() -> workflows.resume("sub-stuck", new ResumeRequest("api")))
        .isInstanceOfSatisfying(
            io.temporal.client.WorkflowUpdateException.class,
            e -> assertThat(SubscriptionWorkflows.transitionNotAllowed(e)).isEqualTo("not paused"));
  }

  @Test
  void aChangeNoWorkerAcceptsIsA503() {
    SubscriptionWorkflows elsewhere =
        new SubscriptionWorkflows(
            env.getWorkflowClient(), "queue-without-workers", Duration.ofMillis(300));
    WorkflowClient.start(
        env.getWorkflowClient()
                .newWorkflowStub(
                    SubscriptionWorkflow.class,
                    WorkflowOptions.newBuilder()
                        .setWorkflowId(BillingIds.workflowId("sub-unserved"))
                        .setTaskQueue("queue-without-workers")
                        .build())
            ::run,
        new SubscriptionInput(subscription(), true));

    assertThatThrownBy(
            () -> elsewhere.pause("sub-unserved", new PauseRequest(1, null, null, "api")))
        .isInstanceOfSatisfying(ApiProblem.class, p -> assertThat(p.status()).isEqualTo(503));
  }

  private static Subscription subscription() {
    BillingSchedule schedule =
        BillingSchedule.startingOnOrAfter(LocalDate.of(2030, 1, 15), 15, Term.MONTHLY, "UTC", 3);
    return new Subscription(
        "acc-1",
        "sub-stuck",
        "pro",
        Money.parse("9.99", "USD"),
        "ada@example.com",
        new PaymentMethod("pm_card_visa", "Visa •••• 4242"),
        schedule,
        SubscriptionStatus.PAST_DUE,
        2,
        null,
        null,
        null,
        null,
        Instant.parse("2030-01-01T00:00:00Z"),
        1,
        "hash");
  }

  /** Accepts payNow and never completes it; refuses resume; nothing else is used here. */
  public static final class StuckChargeWorkflow implements SubscriptionWorkflow {
    private Subscription subscription;

    @Override
    public SubscriptionState run(SubscriptionInput input) {
      subscription = input.subscription();
      Workflow.await(() -> false);
      return state();
    }

    @Override
    public SubscriptionState state() {
      return new SubscriptionState(subscription, SubscriptionState.Phase.CHARGING, null, "stuck");
    }

    @Override
    public SubscriptionState created() {
      return state();
    }

    @Override
    public void validatePayNow(PayNowRequest request) {}

    @Override
    public SubscriptionState payNow(PayNowRequest request) {
      Workflow.await(() -> false);
      return state();
    }

    @Override
    public void validateResume(ResumeRequest request) {
      throw UpdateRejections.transitionNotAllowed("not paused");
    }

    @Override
    public SubscriptionState resume(ResumeRequest request) {
      throw new UnsupportedOperationException();
    }

    @Override
    public SubscriptionState cancel(CancelRequest request) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void validateCancel(CancelRequest request) {}

    @Override
    public SubscriptionState changePaymentMethod(PaymentMethodChange change) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void validateChangePaymentMethod(PaymentMethodChange change) {}

    @Override
    public SubscriptionState pause(PauseRequest request) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void validatePause(PauseRequest request) {}

    @Override
    public SubscriptionState changePlan(PlanChangeRequest request) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void validateChangePlan(PlanChangeRequest request) {}

    @Override
    public SubscriptionState waivePeriod(WaiveRequest request) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void validateWaivePeriod(WaiveRequest request) {}

    @Override
    public SubscriptionState refundPeriod(RefundRequest request) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void validateRefundPeriod(RefundRequest request) {}

    @Override
    public SubscriptionState changeBillingDay(BillingDayChange request) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void validateChangeBillingDay(BillingDayChange request) {}

    @Override
    public SubscriptionState changeCustomer(CustomerChange change) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void validateChangeCustomer(CustomerChange change) {}

    @Override
    public SubscriptionState reactivate(ReactivateRequest request) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void validateReactivate(ReactivateRequest request) {}

    @Override
    public void paymentEvent(PaymentEvent event) {}
  }
}
