package dev.billing.workflows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.temporal.client.WorkflowUpdateException;
import io.temporal.failure.ApplicationFailure;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Asserts how an update was refused: by its validator or its handler, with a typed failure. */
final class Refusals {
  private Refusals() {}

  static void assertRefused(ThrowingCallable update, String type, String message) {
    assertThatThrownBy(update)
        .isInstanceOf(WorkflowUpdateException.class)
        .cause()
        .isInstanceOf(ApplicationFailure.class)
        .satisfies(
            f -> {
              assertThat(((ApplicationFailure) f).getType()).isEqualTo(type);
              assertThat(((ApplicationFailure) f).getOriginalMessage()).isEqualTo(message);
            });
  }
}
