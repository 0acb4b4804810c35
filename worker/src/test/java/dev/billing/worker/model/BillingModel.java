package dev.billing.worker.model;

import dev.billing.activities.ledger.LedgerViolation;
import dev.billing.activities.payments.sandbox.SandboxPaymentMethods;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Reactivation;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.SubscriptionState;
import dev.billing.workflows.UpdateRejections;
import dev.billing.workflows.subscription.SubscriptionRestart;
import io.temporal.client.WorkflowException;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.client.WorkflowUpdateHandle;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

/**
 * The state the action chain works on: the running stack, the subscriptions created so far and what
 * the last check read of their periods (actions pick cycles from it). Every step is written to a
 * journal with its outcome, so a failure shows what the system answered along the way.
 */
final class BillingModel implements AutoCloseable {
  static final int MAX_SUBSCRIPTIONS = 4;
  private static final Duration ACCEPT_BOUND = Duration.ofSeconds(15);

  /**
   * Update types the API answers 409, 402 and 404: the system refusing a change is a normal
   * outcome.
   */
  private static final Set<String> REFUSALS =
      Set.of(
          UpdateRejections.TRANSITION_NOT_ALLOWED,
          UpdateRejections.PAYMENT_DECLINED,
          UpdateRejections.NO_SUCH_PERIOD);

  final BillingStack stack = new BillingStack();
  private final LedgerJudge judge = new LedgerJudge();
  private static final AtomicInteger STACKS = new AtomicInteger();

  /**
   * Subscription ids unique in the JVM: DynamoDB Local remembers transaction tokens across
   * instances.
   */
  private final String idPrefix = "t" + STACKS.incrementAndGet() + "-";

  /**
   * The model's names of its subscriptions (sub-1, sub-2...), the same in every replay of a
   * sequence.
   */
  private final List<String> subscriptions = new ArrayList<>();

  private final Map<String, List<Period>> periods = new HashMap<>();
  private final java.util.Set<String> createdIncomplete = new java.util.HashSet<>();

  /**
   * The model's names of subscriptions cancelled or cancelling at period end, as of the last check.
   */
  private final java.util.Set<String> cancelled = new java.util.TreeSet<>();

  private final List<String> journal = new ArrayList<>();
  private final ModelStats stats;
  private int requests;

  BillingModel(ModelStats stats) {
    this.stats = stats;
  }

  List<String> subscriptions() {
    return List.copyOf(subscriptions);
  }

  boolean canCreate() {
    return subscriptions.size() < MAX_SUBSCRIPTIONS;
  }

  /** Cycles of a subscription in one of {@code statuses}, as of the last check. */
  List<Long> cycles(String subscription, Set<PeriodStatus> statuses) {
    return periods.getOrDefault(id(subscription), List.of()).stream()
        .filter(p -> statuses.contains(p.status()))
        .map(Period::cycle)
        .toList();
  }

  /** Subscriptions cancelled or cancelling at period end, as of the last check. */
  List<String> cancelled() {
    return List.copyOf(cancelled);
  }

  LocalDate today(String zone) {
    return LocalDate.ofInstant(stack.now(), ZoneId.of(zone));
  }

  void create(
      Money price, int billingDay, String zone, String token, int startInDays, int reminderDays) {
    // Odd ones as the API creates them since 1.1.0, even ones ACTIVE as 1.0.0 did: both live on.
    create(
        price,
        billingDay,
        zone,
        token,
        startInDays,
        reminderDays,
        subscriptions.size() % 2 == 0 ? SubscriptionStatus.INCOMPLETE : SubscriptionStatus.ACTIVE);
  }

  void create(
      Money price,
      int billingDay,
      String zone,
      String token,
      int startInDays,
      int reminderDays,
      SubscriptionStatus status) {
    String name = "sub-" + (subscriptions.size() + 1);
    String id = id(name);
    BillingSchedule schedule =
        BillingSchedule.startingOnOrAfter(
            today(zone).plusDays(startInDays), billingDay, Term.MONTHLY, zone, reminderDays);
    Subscription subscription =
        new Subscription(
            BillingStack.account(id),
            id,
            "plan-" + price.minor(),
            price,
            id + "@example.com",
            SandboxPaymentMethods.paymentMethod(token),
            schedule,
            status,
            1,
            schedule.sendsReminders() ? schedule.reminderDate(1) : null,
            schedule.dueDate(1),
            null,
            null,
            stack.now(),
            0,
            "model-" + id,
            null,
            null);
    subscriptions.add(name);
    if (status == SubscriptionStatus.INCOMPLETE) {
      createdIncomplete.add(id);
    }
    try {
      stack.updates.create(subscription);
      note("create " + name + ": created, due " + schedule.dueDate(1));
    } catch (WorkflowException e) {
      note("create " + name + ": failed " + e);
      stats.unexpected(journal.get(journal.size() - 1));
    }
  }

  /** Sends one update as the API does and records what came of it once the stack is at rest. */
  void update(
      String what,
      String subscription,
      BiFunction<String, String, WorkflowUpdateHandle<SubscriptionState>> send) {
    String requestId = "req-" + (++requests);
    WorkflowUpdateHandle<SubscriptionState> handle;
    try {
      // The API waits a bounded time for acceptance and answers 503 after it; so does the model.
      handle =
          CompletableFuture.supplyAsync(() -> send.apply(id(subscription), requestId))
              .get(ACCEPT_BOUND.toSeconds(), TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      note(what + ": not accepted within " + ACCEPT_BOUND + " (the API's 503)");
      stats.unexpected(journal.get(journal.size() - 1));
      return;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof WorkflowNotFoundException) {
        note(what + ": no running workflow (ended)");
        stats.refused();
      } else if (e.getCause() instanceof WorkflowUpdateException rejected) {
        outcomeOf(what, rejected);
      } else {
        note(what + ": failed " + e.getCause());
        stats.unexpected(journal.get(journal.size() - 1));
      }
      return;
    }
    stack.awaitRest(ids());
    try {
      SubscriptionState state = handle.getResultAsync().get(5, TimeUnit.SECONDS);
      note(what + ": done, " + state.subscription().status() + " (" + state.lastOutcome() + ")");
      stats.applied();
      stats.tally(what, "applied");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof WorkflowUpdateException rejected) {
        outcomeOf(what, rejected);
      } else {
        note(what + ": failed " + e.getCause());
        stats.unexpected(journal.get(journal.size() - 1));
      }
    } catch (TimeoutException e) {
      note(what + ": still running at rest (the API's 202)");
      stats.unexpected(journal.get(journal.size() - 1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * A reactivation as the API's ReactivationResource takes it: a subscription still billing gets it
   * as an update of its run (a cancellation at period end taken back, else refused); an ended one
   * is judged on its record first ({@link Reactivation#refusal}, the API's 409 with its type, with
   * the API's default window), and only then started again from the record with the update.
   */
  void reactivate(String what, String subscription) {
    String id = id(subscription);
    Subscription record = stack.store.getSubscription(BillingStack.account(id), id).orElse(null);
    if (record == null || !record.status().isTerminal()) {
      update(what, subscription, (sub, requestId) -> stack.updates.reactivate(sub, requestId));
      return;
    }
    List<Period> all = stack.periods(id);
    Instant now = stack.now();
    var refused = Reactivation.refusal(record, all, now, Reactivation.DEFAULT_WINDOW);
    if (refused.isPresent()) {
      note(
          what
              + ": refused "
              + refused.get().reason().type()
              + " ("
              + refused.get().detail()
              + ")");
      stats.refused();
      stats.tally(what, "refused " + refused.get().reason().type());
      return;
    }
    update(
        what,
        subscription,
        (sub, requestId) ->
            stack.updates.reactivateAfterEnd(
                SubscriptionRestart.ended(record, all, now), requestId));
  }

  /** The stack's id of the model's subscription {@code name} (sub-1...). */
  String idOf(String name) {
    return id(name);
  }

  private String id(String subscription) {
    return idPrefix + subscription;
  }

  private List<String> ids() {
    return subscriptions.stream().map(this::id).toList();
  }

  void advance(Duration duration) {
    stack.sleep(duration);
    note("clock +" + duration + " -> " + stack.now());
  }

  List<String> journal() {
    return List.copyOf(journal);
  }

  void note(String line) {
    journal.add(line);
  }

  /**
   * The invariant after every step: the stack at rest, no workflow failed or replayed differently,
   * and the ledger of every subscription balanced.
   */
  void check() {
    stack.awaitRest(ids());
    stats.step();
    List<String> problems = new ArrayList<>(stack.brokenWorkflows());
    cancelled.clear();
    for (String id : ids()) {
      List<Period> recorded = stack.periods(id);
      periods.put(id, recorded);
      LedgerJudge.Verdict verdict =
          judge.judge(
              stack.books(id),
              new LedgerJudge.Evidence(recorded, stack.refunds(id), stack.recordHistory(id)),
              stack.now());
      stats.setAside(verdict.setAside().size(), verdict.refundsSetAside().size());
      for (LedgerViolation v : verdict.violations()) {
        problems.add(id + " " + v.kind() + ": " + v.detail());
      }
      stack
          .store
          .getSubscription(BillingStack.account(id), id)
          .ifPresent(
              record -> {
                if (record.status() == SubscriptionStatus.CANCELLED
                    || record.lifecycle().cancelsOn() != null) {
                  cancelled.add(id.substring(idPrefix.length()));
                }
                for (String wrong :
                    StatusJudge.judge(
                        record,
                        createdIncomplete.contains(id),
                        stack.recordHistory(id).stream()
                            .anyMatch(e -> e.event() == HistoryEvent.SUBSCRIPTION_RESUMED),
                        recorded,
                        stack.books(id).charges())) {
                  problems.add(id + " STATUS: " + wrong);
                }
              });
    }
    if (!problems.isEmpty()) {
      throw new AssertionError(
          "ledger invariant broken at "
              + stack.now()
              + ":\n  "
              + String.join("\n  ", problems)
              + "\nsteps and outcomes:\n  "
              + String.join("\n  ", journal));
    }
  }

  @Override
  public void close() {
    if (Boolean.getBoolean("model.verbose")) {
      System.out.println("sequence:\n  " + String.join("\n  ", journal));
    }
    stats.sequence(
        stack.restarts(),
        stack.gateway.faultsServed(),
        stack.deliveredEvents(),
        stack.sandbox.charges().size());
    stack.close();
  }

  private void outcomeOf(String what, WorkflowUpdateException e) {
    String type =
        e.getCause() instanceof ApplicationFailure failure
            ? failure.getType()
            : String.valueOf(e.getCause());
    String message =
        e.getCause() instanceof ApplicationFailure failure ? failure.getOriginalMessage() : "";
    if (REFUSALS.contains(type)) {
      note(what + ": refused " + type.substring(type.lastIndexOf('$') + 1) + " (" + message + ")");
      stats.refused();
      stats.tally(what, "refused");
    } else {
      note(what + ": failed " + type + " (" + message + ")");
      stats.unexpected(journal.get(journal.size() - 1));
    }
  }

  @Override
  public String toString() {
    return "BillingModel" + subscriptions;
  }
}
