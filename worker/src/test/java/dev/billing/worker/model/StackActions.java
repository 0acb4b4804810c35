package dev.billing.worker.model;

import java.time.Duration;
import java.util.function.Consumer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.Transformer;

/** The model's steps that act on the stack, not on a subscription: clock, faults, restarts. */
final class StackActions {
  private StackActions() {}

  static Action.Independent<BillingModel> clock() {
    Arbitrary<Duration> hours = Arbitraries.integers().between(1, 48).map(Duration::ofHours);
    Arbitrary<Duration> days = Arbitraries.integers().between(2, 31).map(Duration::ofDays);
    return independent(
        Arbitraries.oneOf(hours, days).map(d -> mutate("clock +" + d, m -> m.advance(d))));
  }

  static Action.Independent<BillingModel> faults() {
    Arbitrary<Transformer<BillingModel>> lost =
        Arbitraries.integers()
            .between(1, 2)
            .map(
                n ->
                    mutate(
                        "gateway: lose the answer of the next " + n + " charges/refunds",
                        m -> {
                          m.stack.gateway.loseAnswers(n);
                          m.note("fault: lose " + n + " answers");
                        }));
    Arbitrary<Transformer<BillingModel>> errors =
        Arbitraries.integers()
            .between(1, 14)
            .map(
                n ->
                    mutate(
                        "gateway: 503 on the next " + n + " calls",
                        m -> {
                          m.stack.gateway.serverErrors(n);
                          m.note("fault: " + n + " x 503");
                        }));
    Arbitrary<Transformer<BillingModel>> throttled =
        Arbitraries.integers()
            .between(1, 10)
            .map(
                n ->
                    mutate(
                        "gateway: 429 on the next " + n + " calls",
                        m -> {
                          m.stack.gateway.throttle(n);
                          m.note("fault: " + n + " x 429");
                        }));
    Arbitrary<Transformer<BillingModel>> outage =
        Arbitraries.integers()
            .between(6, 14)
            .map(
                n ->
                    mutate(
                        "gateway: lose the answer of the next charge/refund, then 503 on the next "
                            + n
                            + " calls",
                        m -> {
                          m.stack.gateway.loseAnswerThenFail(n);
                          m.note("fault: lose 1 answer, then " + n + " x 503");
                        }));
    return independent(Arbitraries.oneOf(lost, errors, throttled, outage));
  }

  static Action.Independent<BillingModel> restart() {
    return independent(
        Arbitraries.just(
            mutate(
                "restart the worker",
                m -> {
                  m.stack.restartWorker();
                  m.note("worker restarted");
                })));
  }

  static Action.Independent<BillingModel> redeliver() {
    return independent(
        Arbitraries.just(
            mutate(
                "redeliver every gateway event",
                m -> {
                  m.stack.redeliverEvents();
                  m.note("events redelivered");
                })));
  }

  private static Action.Independent<BillingModel> independent(
      Arbitrary<Transformer<BillingModel>> transformers) {
    return () -> transformers;
  }

  private static Transformer<BillingModel> mutate(String description, Consumer<BillingModel> step) {
    return Transformer.mutate(description, step);
  }
}
