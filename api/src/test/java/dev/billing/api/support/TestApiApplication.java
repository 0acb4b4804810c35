package dev.billing.api.support;

import dev.billing.api.ApiConfiguration;
import dev.billing.api.ApiInfrastructure;
import dev.billing.api.BillingApiApplication;
import dev.billing.api.auth.keys.ApiKeyStore;
import dev.billing.store.ReconciliationReports;
import dev.billing.store.events.PaymentEventStore;
import io.dropwizard.core.setup.Environment;

/** The production application with the test stack plugged in through the {@code connect} seam. */
final class TestApiApplication extends BillingApiApplication {
  private final ApiTestStack stack;

  TestApiApplication(ApiTestStack stack) {
    this.stack = stack;
  }

  @Override
  protected ApiInfrastructure connect(ApiConfiguration config, Environment environment) {
    environment.lifecycle().manage(stack);
    return stack.infrastructure();
  }

  @Override
  protected PaymentEventStore paymentEvents(ApiConfiguration config) {
    return stack.paymentEvents;
  }

  @Override
  protected ApiKeyStore apiKeys(ApiConfiguration config) {
    return stack.apiKeys;
  }

  @Override
  protected ReconciliationReports reconciliationReports(ApiConfiguration config) {
    return stack.reconciliationReports;
  }

  @Override
  protected void addExtensions(Environment environment, ApiInfrastructure infrastructure) {
    environment.jersey().register(new FailingResource());
    environment.jersey().register(new OperatorOnlyProbe());
    environment.jersey().register(new JsonLimitsProbe());
  }
}
