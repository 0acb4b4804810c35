package dev.billing.workflows.subscription;

import dev.billing.workflows.CancelRequest;
import dev.billing.workflows.PauseRequest;
import dev.billing.workflows.ReactivateRequest;
import dev.billing.workflows.ResumeRequest;
import dev.billing.workflows.SubscriptionState;

/**
 * The update handlers and validators that move the subscription through its lifecycle: pause,
 * resume, cancel and reactivate. Validators refuse by the rules; handlers queue the change for the
 * main thread ({@link ChangeQueue}) and wait for its answer.
 */
final class LifecycleUpdates {
  private final RunState run;
  private final ChangeQueue changes;
  private final LifecycleOperations lifecycle;

  LifecycleUpdates(RunState run, LifecycleOperations lifecycle) {
    this.run = run;
    this.changes = run.changes;
    this.lifecycle = lifecycle;
  }

  void validatePause(PauseRequest request) {
    changes.validate(
        ChangeQueue.identified(request),
        () ->
            ChangeRules.pause(
                run.current(),
                request,
                run.cancelling(),
                run.current().schedule().dateAt(RunState.now()),
                run.firstPaymentOpen()));
  }

  SubscriptionState pause(PauseRequest request) {
    return changes.submit(new QueuedChange.Pause(ChangeQueue.identified(request)));
  }

  void validateResume(ResumeRequest request) {
    changes.validate(
        ChangeQueue.identified(request), () -> ChangeRules.resume(run.current(), run.cancelling()));
  }

  SubscriptionState resume(ResumeRequest request) {
    return changes.submit(
        new QueuedChange.Resume(
            ChangeQueue.identified(request == null ? new ResumeRequest(null) : request)));
  }

  void validateReactivate(ReactivateRequest request) {
    changes.validate(ChangeQueue.identified(request), lifecycle::reactivateRefusal);
  }

  SubscriptionState reactivate(ReactivateRequest request) {
    return changes.submit(
        new QueuedChange.Reactivate(
            ChangeQueue.identified(
                request == null ? new ReactivateRequest(null, null, null) : request)));
  }

  void validateCancel(CancelRequest request) {
    changes.validate(
        ChangeQueue.identified(request),
        () -> ChangeRules.cancel(run.current(), request, run.cancelling()));
  }

  SubscriptionState cancel(CancelRequest asked) {
    CancelRequest request =
        ChangeQueue.identified(asked != null ? asked : new CancelRequest(null, null));
    if (request.atPeriodEnd()) {
      return changes.submit(new QueuedChange.CancelAtPeriodEnd(request));
    }
    return changes.awaitRecorded(
        new QueuedChange.CancelNow(request), run::lastOutcome, "subscription is already cancelled");
  }
}
