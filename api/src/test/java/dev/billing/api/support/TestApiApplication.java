package dev.billing.api.support;

import dev.billing.api.ApiConfiguration;
import dev.billing.api.ApiDependencies;
import dev.billing.api.BillingApiApplication;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.lifecycle.Managed;
import java.util.function.Supplier;

/** The production application on a test's dependencies, plus the test-only probes. */
final class TestApiApplication extends BillingApiApplication {

  /**
   * @param stack stopped with the application
   */
  TestApiApplication(Managed stack, Supplier<ApiDependencies> dependencies) {
    super(
        (config, environment) -> {
          environment.lifecycle().manage(stack);
          return dependencies.get();
        });
  }

  @Override
  public void run(ApiConfiguration config, Environment environment) {
    super.run(config, environment);
    environment.jersey().register(new FailingResource());
    environment.jersey().register(new OperatorOnlyProbe());
    environment.jersey().register(new JsonLimitsProbe());
  }
}
