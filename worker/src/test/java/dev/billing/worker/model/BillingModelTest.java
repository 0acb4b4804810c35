package dev.billing.worker.model;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import net.jqwik.api.Assume;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tag;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.AfterTry;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.ActionChainArbitrary;
import org.slf4j.LoggerFactory;

/**
 * Model-based test of the whole billing stack (docs/model-test.md): seeded random sequences of API
 * changes, clock moves, gateway faults, event redeliveries and worker restarts against the real
 * workflow, activities, DynamoDB Local, Temporal's test server and the sandbox gateway, with the
 * ledger invariant of every subscription checked at rest after every step and once more after the
 * faults stop and the clock runs on. A failure prints its seed and the shrunk sequence.
 *
 * <p>Budget (system properties): {@code model.tries} sequences (default {@value #DEFAULT_TRIES}) of
 * at most {@code model.steps} steps (default {@value #DEFAULT_STEPS}), within {@code model.seconds}
 * of real time (default {@value #DEFAULT_SECONDS}); {@code model.minutes} or {@code model.hours}
 * run sequences until that much time has passed; {@code model.seed} re-runs one seed, and {@code
 * model.seed=random} draws one. Without it the short run uses {@link Budget#VERIFY_SEED} and a long
 * run draws its seed; the seed is printed first, and a failure names it.
 */
@Tag("model")
class BillingModelTest {
  static final int DEFAULT_TRIES = 8;
  static final int DEFAULT_STEPS = 24;
  static final int DEFAULT_SECONDS = 80;

  /**
   * After the last step: faults healed, then the clock runs on in these steps, checked after each.
   */
  private static final List<Duration> DRAIN =
      List.of(Duration.ofDays(3), Duration.ofDays(3), Duration.ofDays(4));

  private static final ModelStats STATS = new ModelStats();
  private static final Path PROGRESS = Path.of("target", "model-test-summary.txt");
  private static final List<BillingModel> OPEN = new ArrayList<>();
  private static long deadline;
  private static final List<String> QUIET = List.of("io.temporal", "dev.billing");
  private static final Map<String, Level> LEVELS = new HashMap<>();

  @Property(shrinking = ShrinkingMode.BOUNDED, edgeCases = EdgeCasesMode.NONE)
  @AddLifecycleHook(Budget.class)
  void everyChargeIsRecordedOnceAndEveryRecordHasItsCharge(
      @ForAll("sequences") ActionChain<BillingModel> sequence) {
    Assume.that(System.nanoTime() < deadline);
    BillingModel model = sequence.withInvariant("ledger", BillingModel::check).run();
    model.stack.gateway.heal();
    model.note("faults healed");
    for (Duration step : DRAIN) {
      model.advance(step);
      model.check();
    }
  }

  @Provide
  ActionChainArbitrary<BillingModel> sequences() {
    return ModelActions.sequences(
        STATS, Integer.getInteger("model.steps", DEFAULT_STEPS), BillingModelTest::opened);
  }

  private static synchronized BillingModel opened(BillingModel model) {
    OPEN.add(model);
    return model;
  }

  @AfterTry
  void closeStacks() {
    synchronized (BillingModelTest.class) {
      OPEN.forEach(BillingModel::close);
      OPEN.clear();
    }
    keepProgress();
  }

  /**
   * The summary so far, on disk after every sequence: a long run killed midway still tells its seed
   * and counts.
   */
  private static void keepProgress() {
    try {
      Files.writeString(PROGRESS, STATS.summary() + System.lineSeparator());
    } catch (IOException e) {
      System.err.println("model test: cannot write " + PROGRESS + ": " + e);
    }
  }

  /**
   * Injected faults make every retry log a warning with its stack trace: errors only, unless
   * verbose.
   */
  @BeforeContainer
  static void quietLogs() {
    if (!Boolean.getBoolean("model.verbose")) {
      for (String name : QUIET) {
        Logger logger = (Logger) LoggerFactory.getLogger(name);
        LEVELS.put(name, logger.getLevel());
        logger.setLevel(Level.ERROR);
      }
    }
  }

  @AfterContainer
  static void report() {
    LEVELS.forEach((name, level) -> ((Logger) LoggerFactory.getLogger(name)).setLevel(level));
    System.out.println(STATS.summary());
  }

  /**
   * Sets tries, seed and the real-time deadline from the system properties before the property
   * runs. Tries left when the deadline passes are skipped (counted by jqwik as discarded).
   */
  static final class Budget implements AroundPropertyHook {
    /**
     * The seed of a build's short run. A build that turns red must be the change's own doing, so
     * verify draws the same sequences every time; new sequences are explored by long runs and by
     * {@code -Dmodel.seed=random}, whose findings are triaged before they can fail a build.
     */
    static final String VERIFY_SEED = "2486622276100567864";

    static String seed(String given, boolean longRun) {
      String random = Long.toString(ThreadLocalRandom.current().nextLong());
      if (given.isBlank()) {
        return longRun ? random : VERIFY_SEED;
      }
      return given.trim().equals("random") ? random : given.trim();
    }

    @Override
    public PropertyExecutionResult aroundProperty(
        PropertyLifecycleContext context, PropertyExecutor property) {
      Duration longRun = longRun();
      int tries = longRun != null ? 100_000 : Integer.getInteger("model.tries", DEFAULT_TRIES);
      Duration budget =
          longRun != null
              ? longRun
              : Duration.ofSeconds(Integer.getInteger("model.seconds", DEFAULT_SECONDS));
      deadline = System.nanoTime() + budget.toNanos();
      context.attributes().setTries(tries);
      context.attributes().setMaxDiscardRatio(100_000);
      String seed = seed(System.getProperty("model.seed", ""), longRun != null);
      context.attributes().setSeed(seed);
      STATS.seed(seed);
      System.out.println("model test: seed " + seed + " (re-run with -Dmodel.seed=" + seed + ")");
      PropertyExecutionResult result = property.execute();
      if (result.status() != PropertyExecutionResult.Status.FAILED) {
        return result;
      }
      Throwable cause = result.throwable().orElse(null);
      return result.mapToFailed(
          new AssertionError(
              "model test failed with seed "
                  + seed
                  + " (re-run with -Dmodel.seed="
                  + seed
                  + "; the shrunk sequence is in the test's output): "
                  + (cause == null ? "" : cause.getMessage()),
              cause));
    }

    private static Duration longRun() {
      String hours = System.getProperty("model.hours");
      if (hours != null) {
        return Duration.ofMinutes(Math.round(Double.parseDouble(hours) * 60));
      }
      Integer minutes = Integer.getInteger("model.minutes");
      return minutes == null ? null : Duration.ofMinutes(minutes);
    }
  }
}
