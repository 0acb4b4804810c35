package dev.billing.api.support.fakes;

import dev.billing.api.errors.ApiProblem;
import dev.billing.api.ops.Reconciliations;
import dev.billing.workflows.reconciliation.ReconciliationInput;
import dev.billing.workflows.reconciliation.SubscriptionRepairInput;
import java.time.Duration;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Reconciliation runs as {@link dev.billing.api.ops.ReconciliationRuns} starts them, without
 * running them: the same workflow ids, one run per Idempotency-Key (409 for another request under
 * it), one repair of a subscription per window. Runs never finish here: what a run finds is the
 * worker's part, shown by the end-to-end tests.
 */
public final class FakeReconciliations implements Reconciliations {

  /** What was started: a run's input and key, or a repair's input. */
  public record Call(Object input, String idempotencyKey) {}

  private final InstantSource clock;
  private final Map<String, String> requestOfWorkflow = new HashMap<>();
  private final Map<String, Started> startedOfWorkflow = new HashMap<>();

  /** The repair workflows started; they never complete here, so a repeat joins the running one. */
  private final Map<String, Boolean> repairs = new HashMap<>();

  public final List<Call> calls = new CopyOnWriteArrayList<>();

  public FakeReconciliations(InstantSource clock) {
    this.clock = clock;
  }

  @Override
  public Started start(ReconciliationInput input, String idempotencyKey) {
    calls.add(new Call(input, idempotencyKey));
    return startOnce(idempotencyKey, Reconciliations.requestOf(input));
  }

  @Override
  public Started start(SubscriptionRepairInput input, String idempotencyKey) {
    calls.add(new Call(input, idempotencyKey));
    return startOnce(
        idempotencyKey,
        "subscription "
            + input.accountId()
            + "/"
            + input.subscriptionId()
            + " repair="
            + input.repair());
  }

  @Override
  public synchronized Repair repair(SubscriptionRepairInput input) {
    calls.add(new Call(input, null));
    long now = clock.instant().getEpochSecond();
    long window = now / REPAIR_WINDOW.toSeconds();
    Duration nextWindow = Duration.ofSeconds((window + 1) * REPAIR_WINDOW.toSeconds() - now);
    String workflowId = "repair-subscription-" + input.subscriptionId() + "-" + window;
    boolean running = repairs.computeIfAbsent(workflowId, id -> true);
    return new Repair(workflowId, running, nextWindow);
  }

  private synchronized Started startOnce(String idempotencyKey, String request) {
    String workflowId =
        "reconciliation-api-"
            + (idempotencyKey != null ? idempotencyKey : UUID.randomUUID().toString());
    String earlier = requestOfWorkflow.get(workflowId);
    if (earlier == null) {
      Started started = new Started(workflowId, UUID.randomUUID().toString(), true);
      requestOfWorkflow.put(workflowId, request);
      startedOfWorkflow.put(workflowId, started);
      return started;
    }
    if (!earlier.equals(request)) {
      throw ApiProblem.conflict(
          "idempotency-key-reused",
          "Idempotency key reused with a different request",
          "This Idempotency-Key already started a run for a different request ("
              + earlier
              + "); use a new key for a new run.");
    }
    return new Started(workflowId, startedOfWorkflow.get(workflowId).reportId(), false);
  }
}
