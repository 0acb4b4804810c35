package dev.billing.api.support;

import dev.billing.api.ApiConfiguration;
import dev.billing.api.BillingApiApplication;
import io.dropwizard.core.Application;
import io.dropwizard.lifecycle.Managed;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import jakarta.ws.rs.client.WebTarget;
import java.util.ArrayList;
import java.util.List;

/**
 * The whole application on Jetty (the shipped api.yml, random ports) on a {@link
 * ResourceTestStack}: for HTTP behaviour that needs a real server in front of the resources
 * (request lines Jetty refuses before any route, a client of its own), without Temporal's test
 * server and worker behind them.
 */
public final class ApplicationOnFakes extends ApiRequests {
  private final DropwizardAppExtension<ApiConfiguration> app;
  private final ResourceTestStack stack;

  private ApplicationOnFakes(
      DropwizardAppExtension<ApiConfiguration> app, ResourceTestStack stack) {
    super(stack.keyService, stack.store);
    this.app = app;
    this.stack = stack;
  }

  public static ApplicationOnFakes start(ConfigOverride... extraOverrides) {
    ResourceTestStack stack = new ResourceTestStack();
    List<ConfigOverride> overrides =
        new ArrayList<>(
            List.of(
                ConfigOverride.config("server.applicationConnectors[0].port", "0"),
                ConfigOverride.config("server.adminConnectors[0].port", "0"),
                // As ApiTestSupport's: a graceful stop took 2 s with every request answered.
                ConfigOverride.config("server.shutdownGracePeriod", "0s"),
                ConfigOverride.config("logging.level", "WARN")));
    overrides.addAll(List.of(extraOverrides));
    Managed stopsTheStack =
        new Managed() {
          @Override
          public void stop() {
            stack.close();
          }
        };
    var support =
        new DropwizardTestSupport<ApiConfiguration>(
            BillingApiApplication.class, "api.yml", overrides.toArray(ConfigOverride[]::new)) {
          @Override
          public Application<ApiConfiguration> newApplication() {
            return new TestApiApplication(stopsTheStack, stack::dependencies);
          }
        };
    return new ApplicationOnFakes(new DropwizardAppExtension<>(support), stack);
  }

  public DropwizardAppExtension<ApiConfiguration> extension() {
    return app;
  }

  public ResourceTestStack stack() {
    return stack;
  }

  @Override
  protected WebTarget root() {
    return app.client().target("http://localhost:" + app.getLocalPort());
  }

  @Override
  protected boolean workflowExists(String subscriptionId) {
    return stack.workflows.exists(subscriptionId);
  }
}
