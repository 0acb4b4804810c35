package dev.billing.workflows.subscription;

import static dev.billing.workflows.subscription.LifecycleOperations.refusal;
import static dev.billing.workflows.subscription.LifecycleOperations.refuseIf;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.EmailBounce;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.workflows.CustomerChange;
import dev.billing.workflows.SubscriptionState.Phase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The customer's email, locale and time zone. Notices read them from the subscription as it is when
 * each is sent, so recording them is the whole change for email and locale. A new time zone keeps
 * the cycle, its calendar due date and the balance; the run plans again, so it waits for the start
 * of that date (or its own time of day) in the new zone. An instant the new zone puts in the past
 * is acted on at once: a reminder not sent yet goes out now unless the payment is due too, and a
 * payment due is charged now, so a move east never skips a period and a move west never bills one
 * twice (the cycle it is on is the one not billed yet).
 */
final class CustomerChanges {
  private final RunState run;

  CustomerChanges(RunState run) {
    this.run = run;
  }

  void changeCustomer(CustomerChange change, String actor) {
    refuseIf(ChangeRules.customer(run.current(), change, false));
    if (!WorkflowChanges.customerChange()) {
      // Only a history that applied this update without the marker could replay here, and no code
      // ever did: refused rather than recorded differently from how it first ran.
      throw refusal("this run cannot change the customer's details");
    }
    Subscription sub = run.current();
    boolean newZone =
        change.timeZone() != null && !change.timeZone().equals(sub.schedule().timeZone());
    String detail = detail(sub, change, newZone);
    run.phase(Phase.RECORDING_PAYMENT);
    run.record(LifecycleChanges.customerChanged(sub, change, actor, detail, RunState.now()));
    run.outcome(detail);
    if (newZone) {
      run.replan();
    }
  }

  /** What changed, for the history entry and the update's answer; never the addresses. */
  private String detail(Subscription sub, CustomerChange change, boolean newZone) {
    List<String> parts = new ArrayList<>();
    EmailBounce bounce = sub.lifecycle().emailBounce();
    if (change.email() != null && !change.email().equals(sub.email())) {
      parts.add(
          bounce == null
              ? "email changed"
              : "email changed, bounce of " + bounce.messageId() + " cleared");
    } else if (change.email() != null && bounce != null) {
      parts.add("email confirmed, bounce of " + bounce.messageId() + " cleared");
    }
    if (change.locale() != null && !change.locale().equals(sub.locale())) {
      parts.add("locale " + sub.locale() + " -> " + change.locale());
    }
    if (newZone) {
      parts.add(zoneDetail(sub, change.timeZone()));
    }
    return String.join("; ", parts);
  }

  private String zoneDetail(Subscription sub, String timeZone) {
    BillingSchedule old = sub.schedule();
    BillingSchedule moved = old.withZone(timeZone);
    long cycle = sub.cycle();
    Instant dueAt = run.dueAt(moved, cycle);
    String text =
        "time zone "
            + old.timeZone()
            + " -> "
            + timeZone
            + "; cycle "
            + cycle
            + " due "
            + moved.dueDate(cycle)
            + " at "
            + dueAt
            + " (was "
            + run.dueAt(old, cycle)
            + ")";
    boolean charges =
        sub.status() != SubscriptionStatus.PAUSED && sub.lifecycle().cancelsOn() == null;
    return charges && !dueAt.isAfter(RunState.now()) ? text + ", past: charged now" : text;
  }
}
