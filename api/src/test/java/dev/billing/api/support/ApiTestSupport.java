package dev.billing.api.support;

import dev.billing.api.ApiConfiguration;
import dev.billing.api.BillingApiApplication;
import dev.billing.domain.BillingIds;
import dev.billing.store.testing.BackgroundClose;
import io.dropwizard.core.Application;
import io.dropwizard.lifecycle.Managed;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.temporal.client.WorkflowNotFoundException;
import jakarta.ws.rs.client.WebTarget;
import java.util.ArrayList;
import java.util.List;

/**
 * The whole application on the real stack ({@link ApiTestStack}: Temporal's test server with the
 * production worker, DynamoDB Local): for the end-to-end tests. A class that leaves the clock where
 * it starts (or moves it by minutes) runs on the JVM's shared stack ({@link #shared()}, {@link
 * #onSharedStack}) and keeps apart by its own accounts; one that moves it by days has its own
 * ({@link #start}).
 */
public final class ApiTestSupport extends ApiRequests {
  private final DropwizardAppExtension<ApiConfiguration> app;
  private final ApiTestStack stack;

  private ApiTestSupport(DropwizardAppExtension<ApiConfiguration> app, ApiTestStack stack) {
    super(stack.keyService, stack.store);
    this.app = app;
    this.stack = stack;
  }

  /**
   * The shipped api.yml on random ports, on a stack of its own that stops with the application: for
   * the classes that move the clock by days and take their dates from where it starts (2026-03-10).
   * Register {@link #extension()} in the class.
   */
  public static ApiTestSupport start(ConfigOverride... extraOverrides) {
    return start(false, extraOverrides);
  }

  /**
   * {@link #start}, with merchant events delivered to the endpoints the class registers ({@link
   * ApiTestStack#ApiTestStack(boolean)}).
   */
  public static ApiTestSupport startWithDelivery(ConfigOverride... extraOverrides) {
    return start(true, extraOverrides);
  }

  private static ApiTestSupport start(boolean delivery, ConfigOverride... extraOverrides) {
    ApiTestStack stack = new ApiTestStack(delivery);
    Managed stopsTheStack =
        new Managed() {
          @Override
          public void stop() {
            BackgroundClose.close(stack::stop);
          }
        };
    return new ApiTestSupport(application(stack, stopsTheStack, extraOverrides), stack);
  }

  /**
   * The shipped api.yml on the test JVM's shared stack ({@link SharedApiStack}): one application,
   * already running, for every class that uses it. Do not register {@link #extension()}: the
   * application outlives the class. Each class gets an operator key of its own.
   */
  public static ApiTestSupport shared() {
    return new ApiTestSupport(SharedApiStack.application(), SharedApiStack.stack());
  }

  /**
   * An application of its own (the shipped api.yml with these overrides) on the shared stack:
   * register {@link #extension()}, which starts and stops the application; the stack stays.
   */
  public static ApiTestSupport onSharedStack(ConfigOverride... overrides) {
    ApiTestStack stack = SharedApiStack.stack();
    return new ApiTestSupport(application(stack, new Managed() {}, overrides), stack);
  }

  /**
   * @param stopsWithIt stopped when the application stops
   */
  static DropwizardAppExtension<ApiConfiguration> application(
      ApiTestStack stack, Managed stopsWithIt, ConfigOverride... extraOverrides) {
    List<ConfigOverride> overrides =
        new ArrayList<>(
            List.of(
                ConfigOverride.config("server.applicationConnectors[0].port", "0"),
                ConfigOverride.config("server.adminConnectors[0].port", "0"),
                // Jetty's graceful stop (30 s allowed) took 2 s per application here, with every
                // request already answered.
                ConfigOverride.config("server.shutdownGracePeriod", "0s"),
                ConfigOverride.config("logging.level", "WARN")));
    overrides.addAll(List.of(extraOverrides));
    var support =
        new DropwizardTestSupport<ApiConfiguration>(
            BillingApiApplication.class, "api.yml", overrides.toArray(ConfigOverride[]::new)) {
          @Override
          public Application<ApiConfiguration> newApplication() {
            return new TestApiApplication(stopsWithIt, stack::dependencies);
          }
        };
    return new DropwizardAppExtension<>(support);
  }

  public DropwizardAppExtension<ApiConfiguration> extension() {
    return app;
  }

  public ApiTestStack stack() {
    return stack;
  }

  @Override
  protected WebTarget root() {
    return app.client().target("http://localhost:" + app.getLocalPort());
  }

  @Override
  protected boolean workflowExists(String subscriptionId) {
    try {
      stack
          .env
          .getWorkflowClient()
          .newUntypedWorkflowStub(BillingIds.workflowId(subscriptionId))
          .describe();
      return true;
    } catch (WorkflowNotFoundException e) {
      return false;
    }
  }
}
