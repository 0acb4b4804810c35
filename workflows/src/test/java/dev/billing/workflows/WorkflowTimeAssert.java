package dev.billing.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The test server jumps its clock to the instant a timer fires and then lets it run in real time,
 * so work done after a timer sees that instant plus the few milliseconds the worker took. "At" the
 * expected instant therefore means: not before it, and within a slack that absorbs a loaded machine
 * (the dates are days apart).
 */
final class WorkflowTimeAssert {
  private WorkflowTimeAssert() {}

  static final Duration SLACK = Duration.ofSeconds(30);

  static void assertAt(Instant actual, String expected) {
    Instant at = Instant.parse(expected);
    assertThat(actual)
        .as("workflow time of a step expected at %s", expected)
        .isAfterOrEqualTo(at)
        .isBefore(at.plus(SLACK));
  }

  static void assertAllAt(List<Instant> actual, List<String> expected) {
    assertThat(actual).hasSameSizeAs(expected);
    for (int i = 0; i < expected.size(); i++) {
      assertAt(actual.get(i), expected.get(i));
    }
  }
}
