package dev.billing.activities.payments;

import dev.billing.domain.BillingIds;
import dev.billing.domain.PaymentEvent;
import dev.billing.domain.Period;
import dev.billing.domain.Subscription;
import dev.billing.store.ReconciliationQueries;
import dev.billing.workflows.SubscriptionInput;
import dev.billing.workflows.SubscriptionStartOptions;
import dev.billing.workflows.SubscriptionWorkflow;
import dev.billing.workflows.subscription.SubscriptionRestart;
import io.temporal.api.enums.v1.WorkflowIdConflictPolicy;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.client.BatchRequest;
import io.temporal.client.WorkflowClient;
import java.time.InstantSource;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@link PaymentEventIntake.Signals} on a Temporal client: the {@code paymentEvent} signal to the
 * subscription's current run, and for an ended subscription a signal-with-start of a run built from
 * its record. Used by the webhook endpoint and by reconciliation's replay alike.
 */
public final class TemporalPaymentEventSignals implements PaymentEventIntake.Signals {

  /** Where an ended subscription's record is read from. */
  public interface Records {
    /** The subscription by its id alone (a gateway event does not carry the account). */
    Optional<Subscription> subscription(String subscriptionId);

    /** Every period of the subscription. */
    List<Period> periods(Subscription subscription);

    /** Both read from the system of record, consistently. */
    static Records of(ReconciliationQueries queries) {
      return new Records() {
        @Override
        public Optional<Subscription> subscription(String subscriptionId) {
          return queries.subscription(subscriptionId);
        }

        @Override
        public List<Period> periods(Subscription subscription) {
          return queries.periods(subscription.accountId(), subscription.subscriptionId());
        }
      };
    }
  }

  private final WorkflowClient client;
  private final String taskQueue;
  private final Records records;
  private final InstantSource clock;

  public TemporalPaymentEventSignals(
      WorkflowClient client, String taskQueue, Records records, InstantSource clock) {
    this.client = Objects.requireNonNull(client, "client");
    this.taskQueue = Objects.requireNonNull(taskQueue, "taskQueue");
    this.records = Objects.requireNonNull(records, "records");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public void send(PaymentEvent event) {
    client
        .newWorkflowStub(SubscriptionWorkflow.class, BillingIds.workflowId(event.subscriptionId()))
        .paymentEvent(event);
  }

  /**
   * Signal-with-start: when a run is open under the id after all (a refund after the end, a
   * reconciliation restart), the event is signalled to it; otherwise a run starts from the record
   * with the event pending, and the signal's copy of it is a duplicate the run ignores. Delivered
   * again after the return was recorded, the record no longer shows the charge collected (after a
   * refund or dispute was recorded, the period holds it), so no run is started. A run that is open
   * knows every collected charge too (a refund after the end starts one from the record the same
   * way), so the return is recorded whichever run takes it.
   */
  @Override
  public boolean startEnded(PaymentEvent event) {
    Optional<Subscription> found = records.subscription(event.subscriptionId());
    if (found.isEmpty() || !found.get().status().isTerminal()) {
      return false;
    }
    Subscription record = found.get();
    Optional<SubscriptionInput> input =
        SubscriptionRestart.afterEnd(record, records.periods(record), event, clock.instant());
    if (input.isEmpty()) {
      return false; // nothing the record shows collected by that charge: nothing to record
    }
    SubscriptionWorkflow workflow =
        client.newWorkflowStub(
            SubscriptionWorkflow.class,
            SubscriptionStartOptions.of(
                record,
                taskQueue,
                null,
                WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
                WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING));
    BatchRequest start = client.newSignalWithStartRequest();
    start.add(workflow::run, input.get());
    start.add(workflow::paymentEvent, event);
    client.signalWithStart(start);
    return true;
  }
}
