package dev.billing.api.support;

import dev.billing.api.ApiConfiguration;
import dev.billing.api.BillingApiApplication;
import io.dropwizard.core.setup.Environment;

/** The production application on the test stack's dependencies, plus the test-only probes. */
final class TestApiApplication extends BillingApiApplication {

  TestApiApplication(ApiTestStack stack) {
    super((config, environment) -> {
      environment.lifecycle().manage(stack);
      return stack.dependencies();
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
