package dev.billing.worker.model;

import dev.billing.activities.payments.sandbox.SandboxPaymentMethods;
import dev.billing.domain.Money;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.PlanChangeRequest.Effective;
import java.time.LocalDate;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.ActionChainArbitrary;
import net.jqwik.api.state.Transformer;

/** The model's steps and how often each is drawn. */
final class ModelActions {
  private ModelActions() {}

  /** Includes prices below the gateway's minimum charge (Stripe: 0.50 USD). */
  static final List<Money> PRICES =
      List.of(usd(30), usd(49), usd(50), usd(999), usd(2000), usd(12000));

  static final List<String> ZONES =
      List.of("UTC", "America/New_York", "America/Los_Angeles", "Pacific/Auckland", "Asia/Kolkata");
  static final List<String> TOKENS =
      List.of(
          SandboxPaymentMethods.VISA,
          SandboxPaymentMethods.INSUFFICIENT_FUNDS,
          SandboxPaymentMethods.recoversAfter(1),
          SandboxPaymentMethods.recoversAfter(3),
          SandboxPaymentMethods.transientErrors(2),
          SandboxPaymentMethods.transientErrors(7),
          SandboxPaymentMethods.TIMEOUT_AFTER_CHARGE,
          SandboxPaymentMethods.BANK_DEBIT,
          SandboxPaymentMethods.BANK_DEBIT_RETURNED);
  private static final Set<PeriodStatus> COLLECTED =
      Set.of(PeriodStatus.COMPLETED, PeriodStatus.REFUNDED);
  private static final Set<PeriodStatus> UNPAID = Set.of(PeriodStatus.ERROR);

  static ActionChainArbitrary<BillingModel> sequences(
      ModelStats stats, int steps, Function<BillingModel, BillingModel> opened) {
    ActionChainArbitrary<BillingModel> chains =
        ActionChain.startWith(() -> opened.apply(new BillingModel(stats)));
    if (Boolean.parseBoolean(System.getProperty("model.restarts", "true"))) {
      chains = chains.withAction(1, StackActions.restart());
    }
    return chains
        .withAction(3, create())
        .withAction(6, StackActions.clock())
        .withAction(2, StackActions.faults())
        .withAction(1, StackActions.redeliver())
        .withAction(1, onSubscription("pause", pause()))
        .withAction(
            1,
            onSubscription(
                "resume",
                (m, s) ->
                    Arbitraries.just(
                        mutate(
                            "resume " + s,
                            x ->
                                x.update(
                                    "resume " + s,
                                    s,
                                    (sub, id) -> x.stack.updates.resume(sub, id))))))
        .withAction(2, onSubscription("plan", planChange()))
        .withAction(2, onSubscription("method", methodChange()))
        .withAction(
            2,
            onSubscription(
                "pay",
                (m, s) ->
                    Arbitraries.just(
                        mutate(
                            "pay " + s,
                            x ->
                                x.update(
                                    "pay " + s, s, (sub, id) -> x.stack.updates.payNow(sub, id))))))
        .withAction(1, onSubscription("waive", waive()))
        .withAction(2, onSubscription("refund", refund()))
        .withAction(1, onSubscription("cancel", cancel()))
        .withAction(2, reactivate())
        .withAction(1, onSubscription("term", termSwitch()))
        .withAction(
            1,
            onSubscription(
                "billing day",
                (m, s) ->
                    Arbitraries.integers()
                        .between(1, 31)
                        .map(
                            day ->
                                mutate(
                                    "billing day " + day + " for " + s,
                                    x ->
                                        x.update(
                                            "billing day " + day + " for " + s,
                                            s,
                                            (sub, id) ->
                                                x.stack.updates.changeBillingDay(sub, id, day))))))
        .withMaxTransformations(steps);
  }

  private static Action.Independent<BillingModel> create() {
    Arbitrary<Transformer<BillingModel>> creates =
        Combinators.combine(
                Arbitraries.of(PRICES),
                Arbitraries.integers().between(1, 31),
                Arbitraries.of(ZONES),
                Arbitraries.of(TOKENS),
                Arbitraries.integers().between(0, 20),
                Arbitraries.integers().between(0, 7))
            .as(
                (price, day, zone, token, startIn, remind) ->
                    mutate(
                        "create "
                            + price
                            + " day "
                            + day
                            + " "
                            + zone
                            + " "
                            + token
                            + " start +"
                            + startIn
                            + "d remind "
                            + remind
                            + "d",
                        m -> m.create(price, day, zone, token, startIn, remind)));
    return new Action.Independent<>() {
      @Override
      public boolean precondition(BillingModel model) {
        return model.canCreate();
      }

      @Override
      public Arbitrary<Transformer<BillingModel>> transformer() {
        return creates;
      }
    };
  }

  private interface OnSubscription {
    Arbitrary<Transformer<BillingModel>> transformer(BillingModel model, String subscriptionId);
  }

  private static Action.Dependent<BillingModel> onSubscription(String name, OnSubscription action) {
    return new Action.Dependent<>() {
      @Override
      public boolean precondition(BillingModel model) {
        return !model.subscriptions().isEmpty();
      }

      @Override
      public Arbitrary<Transformer<BillingModel>> transformer(BillingModel model) {
        return Arbitraries.of(model.subscriptions()).flatMap(s -> action.transformer(model, s));
      }

      @Override
      public String toString() {
        return name;
      }
    };
  }

  private static OnSubscription pause() {
    return (model, s) ->
        Arbitraries.oneOf(
            Arbitraries.integers()
                .between(1, 2)
                .map(
                    n ->
                        mutate(
                            "pause " + s + " for " + n + " cycles",
                            m ->
                                m.update(
                                    "pause " + s + " for " + n + " cycles",
                                    s,
                                    (sub, id) -> m.stack.updates.pause(sub, id, n, null)))),
            Arbitraries.integers()
                .between(5, 70)
                .map(
                    days ->
                        mutate(
                            "pause " + s + " for " + days + " days",
                            m -> {
                              LocalDate until = m.today("UTC").plusDays(days);
                              m.update(
                                  "pause " + s + " until " + until,
                                  s,
                                  (sub, id) -> m.stack.updates.pause(sub, id, null, until));
                            })),
            Arbitraries.just(
                mutate(
                    "pause " + s + " until resumed",
                    m ->
                        m.update(
                            "pause " + s + " until resumed",
                            s,
                            (sub, id) -> m.stack.updates.pause(sub, id, null, null)))));
  }

  private static OnSubscription planChange() {
    return (model, s) ->
        Combinators.combine(Arbitraries.of(PRICES), Arbitraries.of(Effective.class))
            .as(
                (price, effective) -> {
                  String what = "plan " + price + " " + effective + " for " + s;
                  return mutate(
                      what,
                      m ->
                          m.update(
                              what,
                              s,
                              (sub, id) ->
                                  m.stack.updates.changePlan(
                                      sub, id, "plan-" + price.minor(), price, effective)));
                });
  }

  /**
   * A term switch: a plan change with a term (every subscription is created MONTHLY, so YEARLY
   * switches and MONTHLY keeps it), now (the prorated difference charged with the upgrade's key or
   * credited) or at period end.
   */
  private static OnSubscription termSwitch() {
    return (model, s) ->
        Combinators.combine(
                Arbitraries.of(PRICES),
                Arbitraries.of(Effective.class),
                Arbitraries.of(Term.YEARLY, Term.YEARLY, Term.MONTHLY))
            .as(
                (price, effective, term) -> {
                  String what = "term " + term + " plan " + price + " " + effective + " for " + s;
                  return mutate(
                      what,
                      m ->
                          m.update(
                              what,
                              s,
                              (sub, id) ->
                                  m.stack.updates.changePlan(
                                      sub, id, "plan-" + price.minor(), price, effective, term)));
                });
  }

  /**
   * Drawn once a subscription is cancelled or cancelling (as of the last check), mostly on one of
   * those; one in five on any subscription, for the refusal of one that is not.
   */
  private static Action.Dependent<BillingModel> reactivate() {
    return new Action.Dependent<>() {
      @Override
      public boolean precondition(BillingModel model) {
        return !model.cancelled().isEmpty();
      }

      @Override
      public Arbitrary<Transformer<BillingModel>> transformer(BillingModel model) {
        Arbitrary<String> which =
            Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.of(model.cancelled())),
                Tuple.of(1, Arbitraries.of(model.subscriptions())));
        return which.map(s -> mutate("reactivate " + s, m -> m.reactivate("reactivate " + s, s)));
      }

      @Override
      public String toString() {
        return "reactivate";
      }
    };
  }

  private static OnSubscription methodChange() {
    return (model, s) ->
        Arbitraries.of(TOKENS)
            .map(
                token -> {
                  String what = "payment method " + token + " for " + s;
                  return mutate(
                      what,
                      m ->
                          m.update(
                              what,
                              s,
                              (sub, id) ->
                                  m.stack.updates.changePaymentMethod(
                                      sub, id, SandboxPaymentMethods.paymentMethod(token))));
                });
  }

  private static OnSubscription waive() {
    return (model, s) ->
        cycleOf(model, s, UNPAID)
            .map(
                cycle -> {
                  String what = "waive cycle " + cycle + " of " + s;
                  return mutate(
                      what,
                      m -> m.update(what, s, (sub, id) -> m.stack.updates.waive(sub, id, cycle)));
                });
  }

  private static OnSubscription refund() {
    return (model, s) ->
        Combinators.combine(cycleOf(model, s, COLLECTED), Arbitraries.of(0L, 1L, 100L, 450L))
            .as(
                (cycle, cents) -> {
                  Money amount = cents == 0 ? null : usd(cents);
                  String what =
                      "refund "
                          + (amount == null ? "the rest" : amount)
                          + " of cycle "
                          + cycle
                          + " of "
                          + s;
                  return mutate(
                      what,
                      m ->
                          m.update(
                              what,
                              s,
                              (sub, id) -> m.stack.updates.refund(sub, id, cycle, amount)));
                });
  }

  private static OnSubscription cancel() {
    return (model, s) ->
        Combinators.combine(Arbitraries.of(true, false), Arbitraries.of(true, false))
            .as(
                (atPeriodEnd, refundUnused) -> {
                  String what =
                      "cancel "
                          + s
                          + (atPeriodEnd ? " at period end" : " now")
                          + (refundUnused ? " refunding unused days" : "");
                  return mutate(
                      what,
                      m ->
                          m.update(
                              what,
                              s,
                              (sub, id) ->
                                  m.stack.updates.cancel(sub, id, atPeriodEnd, refundUnused)));
                });
  }

  /** A cycle in one of the statuses when the subscription has one, else one of its first cycles. */
  private static Arbitrary<Long> cycleOf(BillingModel model, String s, Set<PeriodStatus> statuses) {
    List<Long> cycles = model.cycles(s, statuses);
    return cycles.isEmpty() ? Arbitraries.longs().between(1, 3) : Arbitraries.of(cycles);
  }

  private static Action.Independent<BillingModel> independent(
      Arbitrary<Transformer<BillingModel>> transformers) {
    return () -> transformers;
  }

  private static Transformer<BillingModel> mutate(
      String description, java.util.function.Consumer<BillingModel> step) {
    return Transformer.mutate(description, step);
  }

  private static Money usd(long minor) {
    return new Money(minor, "USD");
  }
}
