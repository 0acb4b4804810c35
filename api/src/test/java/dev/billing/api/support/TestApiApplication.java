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
   * @param stopsWithIt stopped with the application (its own stack; nothing for a shared one)
   */
  TestApiApplication(Managed stopsWithIt, Supplier<ApiDependencies> dependencies) {
    super(
        (config, environment) -> {
          environment.lifecycle().manage(stopsWithIt);
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
