package dev.billing.worker;

import dev.billing.activities.notifications.OutboxNotifier;
import dev.billing.activities.payments.PaymentGateway;
import dev.billing.activities.payments.sandbox.SandboxGateway;
import dev.billing.runtime.ConfigSources;
import dev.billing.runtime.DynamoConnection;
import dev.billing.runtime.DynamoHealthCheck;
import dev.billing.runtime.PageTokenKeys;
import dev.billing.runtime.TemporalConnection;
import dev.billing.runtime.TemporalHealthCheck;
import dev.billing.store.DynamoBillingStore;
import dev.billing.store.StoreSettings;
import io.dropwizard.core.Application;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import java.time.InstantSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker process: {@code java -jar billing-worker-all.jar server worker.yml}. Dropwizard gives it
 * YAML configuration with environment overrides, health checks and metrics on its admin port.
 */
public class WorkerApplication extends Application<WorkerConfiguration> {
  private static final Logger LOG = LoggerFactory.getLogger(WorkerApplication.class);

  public static void main(String[] args) throws Exception {
    new WorkerApplication().run(args.length == 0 ? new String[] {"server", "worker.yml"} : args);
  }

  @Override
  public String getName() {
    return "billing-worker";
  }

  @Override
  public void initialize(Bootstrap<WorkerConfiguration> bootstrap) {
    bootstrap.setConfigurationSourceProvider(ConfigSources.fileOrClasspathWithEnv());
  }

  @Override
  public void run(WorkerConfiguration config, Environment environment) {
    DynamoConnection dynamo = new DynamoConnection(config.dynamo);
    TemporalConnection temporal = new TemporalConnection(config.temporal);
    environment.lifecycle().manage(dynamo);
    environment.lifecycle().manage(temporal);
    environment.healthChecks().register("dynamodb", new DynamoHealthCheck(dynamo));
    environment.healthChecks().register("temporal", new TemporalHealthCheck(temporal));

    var store = new DynamoBillingStore(dynamo.client(), dynamo.tableNames(),
        new StoreSettings(config.dynamo.receiptRetentionPeriod(), PageTokenKeys.random()));
    var adapters = new BillingWorker.Adapters(store, gateway(config), new OutboxNotifier());
    environment.lifecycle().manage(
        new WorkerLifecycle(BillingWorker.create(temporal.client(), config.temporal.taskQueue(), adapters)));
    LOG.info("Worker polling task queue {} on {} with gateway {}", config.temporal.taskQueue(),
        config.temporal, config.gateway);
  }

  private static PaymentGateway gateway(WorkerConfiguration config) {
    if (!"sandbox".equals(config.gateway)) {
      throw new IllegalArgumentException("gateway must be \"sandbox\" (got \"" + config.gateway + "\")");
    }
    return new SandboxGateway(InstantSource.system());
  }
}
