package dev.billing.api.support;

import dev.billing.api.ApiConfiguration;
import io.dropwizard.lifecycle.Managed;
import io.dropwizard.testing.junit5.DropwizardAppExtension;

/**
 * One {@link ApiTestStack}, and one application on it with the shipped api.yml, per test JVM: a
 * stack and an application take seconds to start and stop, the tests of a class on them tens of
 * milliseconds. Started by the first class that asks; the classes keep apart by their own accounts
 * and subscriptions ({@link ApiRequests#newAccount()}), and none of them moves the clock by more
 * than minutes, so "today" stays 2026-03-10 for all of them.
 *
 * <p>Closed when the JVM exits, not from JUnit's root store: when Surefire feeds a fork one class
 * at a time (several forks), every class is a launch of its own and the root store closes after it.
 */
final class SharedApiStack {
  private static ApiTestStack stack;
  private static DropwizardAppExtension<ApiConfiguration> application;

  private SharedApiStack() {}

  static synchronized ApiTestStack stack() {
    if (stack == null) {
      stack = new ApiTestStack();
      Runtime.getRuntime().addShutdownHook(new Thread(SharedApiStack::close, "shared-api-stack"));
    }
    return stack;
  }

  static synchronized DropwizardAppExtension<ApiConfiguration> application() {
    if (application == null) {
      DropwizardAppExtension<ApiConfiguration> started =
          ApiTestSupport.application(stack(), new Managed() {});
      try {
        started.before();
      } catch (Exception e) {
        throw new IllegalStateException("the shared API application did not start", e);
      }
      application = started;
    }
    return application;
  }

  private static synchronized void close() {
    if (application != null) {
      application.after();
    }
    if (stack != null) {
      stack.stop();
    }
  }
}
