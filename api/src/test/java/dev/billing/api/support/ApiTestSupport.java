package dev.billing.api.support;

import dev.billing.api.ApiConfiguration;
import dev.billing.api.BillingApiApplication;
import dev.billing.domain.BillingIds;
import io.dropwizard.core.Application;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.temporal.client.WorkflowNotFoundException;
import jakarta.ws.rs.client.WebTarget;
import java.util.ArrayList;
import java.util.List;

/**
 * The whole application on the real stack ({@link ApiTestStack}: Temporal's test server with the
 * production worker, DynamoDB Local): for the end-to-end tests.
 */
public final class ApiTestSupport extends ApiRequests {
  private final DropwizardAppExtension<ApiConfiguration> app;
  private final ApiTestStack stack;

  private ApiTestSupport(DropwizardAppExtension<ApiConfiguration> app, ApiTestStack stack) {
    super(stack.keyService, stack.store);
    this.app = app;
    this.stack = stack;
  }

  /** The shipped api.yml on random ports, on the test stack's dependencies. */
  public static ApiTestSupport start(ConfigOverride... extraOverrides) {
    ApiTestStack stack = new ApiTestStack();
    List<ConfigOverride> overrides =
        new ArrayList<>(
            List.of(
                ConfigOverride.config("server.applicationConnectors[0].port", "0"),
                ConfigOverride.config("server.adminConnectors[0].port", "0"),
                ConfigOverride.config("logging.level", "WARN")));
    overrides.addAll(List.of(extraOverrides));
    var support =
        new DropwizardTestSupport<ApiConfiguration>(
            BillingApiApplication.class, "api.yml", overrides.toArray(ConfigOverride[]::new)) {
          @Override
          public Application<ApiConfiguration> newApplication() {
            return new TestApiApplication(stack, stack::dependencies);
          }
        };
    return new ApiTestSupport(new DropwizardAppExtension<>(support), stack);
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
