package dev.billing.workflows.subscription;

import dev.billing.domain.PaymentEvent;
import dev.billing.workflows.BillingDayChange;
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
import dev.billing.workflows.SubscriptionVisibility;
import dev.billing.workflows.SubscriptionWorkflow;
import dev.billing.workflows.WaiveRequest;
import dev.billing.workflows.subscription.RunState.Flow;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInit;
import org.slf4j.Logger;

/**
 * Bills one cycle per run, then continues as new. Only the main workflow thread writes the
 * subscription ({@link RunLoop}); the update handlers ({@link LifecycleUpdates}, {@link
 * BillingUpdates}, {@link PaymentUpdates}) validate, queue their change ({@link ChangeQueue}) and
 * wait until the main thread has applied it at its next safe point (while sleeping, or after a step
 * has completed), so nothing ever lands between a charge and its record.
 *
 * <p>Periods that are not settled when the run's own cycle has been charged (in dunning, or a bank
 * debit waiting to settle) travel to the next run in {@link SubscriptionInput#collections()}. Each
 * run serves them on their own dates beside its own cycle ({@link RunPlanner}).
 */
public class SubscriptionWorkflowImpl implements SubscriptionWorkflow {

  private static final Logger log = Workflow.getLogger(SubscriptionWorkflowImpl.class);

  /** The principal that asked for the subscription; only on the first run. */
  private final String createdBy;

  private final RunState run;
  private final PeriodCollection periods;
  private final RequestLog requests;
  private final Cancellation cancellation;
  private final RunLoop loop;
  private final LifecycleUpdates lifecycleUpdates;
  private final BillingUpdates billingUpdates;
  private final PaymentUpdates paymentUpdates;

  /** Runs before any handler, so updates, signals and queries always see the subscription. */
  @WorkflowInit
  public SubscriptionWorkflowImpl(SubscriptionInput input) {
    createdBy = input.requestedBy();
    run = new RunState(input);
    periods = run.periods;
    requests = run.requests;
    Gateway gateway = new Gateway();
    PaymentCollector collector = new PaymentCollector(run, gateway);
    LifecycleOperations lifecycle = new LifecycleOperations(run, gateway, collector);
    cancellation = new Cancellation(run, lifecycle, collector);
    loop = new RunLoop(run, collector, lifecycle, cancellation);
    lifecycleUpdates = new LifecycleUpdates(run, lifecycle);
    billingUpdates = new BillingUpdates(run);
    paymentUpdates = new PaymentUpdates(run, lifecycle);
  }

  @Override
  public SubscriptionState run(SubscriptionInput input) {
    if (run.current().cycle() < 1) {
      throw ApplicationFailure.newNonRetryableFailure(
          "subscription cycle must start at 1, got " + run.current().cycle(),
          "InvalidSubscription");
    }
    if (!run.recorded()) {
      run.recordCreation(createdBy);
    }
    requests.armCarried();
    while (true) {
      if (run.current().status().isTerminal()) {
        // An ended subscription's run (see SubscriptionRestart#afterEnd): money that moved after
        // the end is recorded before it ends again.
        cancellation.settle();
        loop.end();
        if (run.current().status().isTerminal()) {
          return run.snapshot();
        }
        // Reactivated while it waited to end: it bills again, planned in this same run.
        continue;
      }
      run.clearNext();
      Flow flow = run.current().lifecycle().pause() != null ? loop.pausedRun() : loop.cycleRun();
      if (flow == Flow.ENDED) {
        return run.snapshot();
      }
      if (flow == Flow.NEXT_RUN) {
        break;
      }
      // REPLAN: a change moved this run's timers; plan again in this same run, so an update that
      // follows at once never meets a run that is closing.
    }
    // The next run's search attributes (next payment date) and memo travel in this command.
    Workflow.continueAsNew(
        SubscriptionVisibility.continueAsNew(run.current()),
        new SubscriptionInput(run.current(), true, periods.carry(), null, requests.carry()));
    return run.snapshot(); // not reached: continueAsNew does not return
  }

  // ---- Update handlers: see LifecycleUpdates, BillingUpdates and PaymentUpdates.

  @Override
  public void validatePause(PauseRequest request) {
    lifecycleUpdates.validatePause(request);
  }

  @Override
  public SubscriptionState pause(PauseRequest request) {
    return lifecycleUpdates.pause(request);
  }

  @Override
  public void validateResume(ResumeRequest request) {
    lifecycleUpdates.validateResume(request);
  }

  @Override
  public SubscriptionState resume(ResumeRequest request) {
    return lifecycleUpdates.resume(request);
  }

  @Override
  public void validateChangePlan(PlanChangeRequest request) {
    billingUpdates.validateChangePlan(request);
  }

  @Override
  public SubscriptionState changePlan(PlanChangeRequest request) {
    return billingUpdates.changePlan(request);
  }

  @Override
  public void validatePayNow(PayNowRequest request) {
    paymentUpdates.validatePayNow(request);
  }

  @Override
  public SubscriptionState payNow(PayNowRequest request) {
    return paymentUpdates.payNow(request);
  }

  @Override
  public void validateWaivePeriod(WaiveRequest request) {
    paymentUpdates.validateWaivePeriod(request);
  }

  @Override
  public SubscriptionState waivePeriod(WaiveRequest request) {
    return paymentUpdates.waivePeriod(request);
  }

  @Override
  public void validateRefundPeriod(RefundRequest request) {
    paymentUpdates.validateRefundPeriod(request);
  }

  @Override
  public SubscriptionState refundPeriod(RefundRequest request) {
    return paymentUpdates.refundPeriod(request);
  }

  @Override
  public void validateChangeBillingDay(BillingDayChange request) {
    billingUpdates.validateChangeBillingDay(request);
  }

  @Override
  public SubscriptionState changeBillingDay(BillingDayChange request) {
    return billingUpdates.changeBillingDay(request);
  }

  @Override
  public void validateChangeCustomer(CustomerChange change) {
    billingUpdates.validateChangeCustomer(change);
  }

  @Override
  public SubscriptionState changeCustomer(CustomerChange change) {
    return billingUpdates.changeCustomer(change);
  }

  @Override
  public void validateReactivate(ReactivateRequest request) {
    lifecycleUpdates.validateReactivate(request);
  }

  @Override
  public SubscriptionState reactivate(ReactivateRequest request) {
    return lifecycleUpdates.reactivate(request);
  }

  @Override
  public void validateChangePaymentMethod(PaymentMethodChange change) {
    paymentUpdates.validateChangePaymentMethod(change);
  }

  @Override
  public SubscriptionState changePaymentMethod(PaymentMethodChange request) {
    return paymentUpdates.changePaymentMethod(request);
  }

  @Override
  public void validateCancel(CancelRequest request) {
    lifecycleUpdates.validateCancel(request);
  }

  @Override
  public SubscriptionState cancel(CancelRequest asked) {
    return lifecycleUpdates.cancel(asked);
  }

  @Override
  public SubscriptionState state() {
    return run.snapshot();
  }

  @Override
  public SubscriptionState created() {
    Workflow.await(run::recorded);
    return run.snapshot();
  }

  @Override
  public void paymentEvent(PaymentEvent event) {
    if (event == null) {
      return;
    }
    // Only de-duplicated and queued here: what it means is decided on the main thread at a safe
    // point, where the state is never half-way through a record.
    String ignored = periods.receive(event);
    if (ignored != null) {
      log.info("payment event ignored: {}", ignored);
    }
  }
}
