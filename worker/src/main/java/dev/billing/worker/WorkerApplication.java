package dev.billing.worker;

import dev.billing.activities.notifications.OutboxNotifier;
import dev.billing.activities.payments.PaymentGateway;
import dev.billing.activities.payments.sandbox.SandboxGateway;
import dev.billing.activities.payments.stripe.StripeGateway;
import dev.billing.activities.payments.stripe.StripeSettings;
import dev.billing.runtime.ConfigSources;
import dev.billing.runtime.PageTokenKeys;
import dev.billing.runtime.ProcessConnections;
import dev.billing.runtime.SecretFiles;
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
    ProcessConnections connections = ProcessConnections.open(config, environment);
    var adapters = new BillingWorker.Adapters(
        connections.store(PageTokenKeys.random()), gateway(config), new OutboxNotifier(), config.dunning);
    environment.lifecycle().manage(new WorkerLifecycle(BillingWorker.create(
        connections.temporal().client(), config.temporal.taskQueue(), adapters)));
    LOG.info("Worker polling task queue {} on {} with gateway {}, dunning {}", config.temporal.taskQueue(),
        config.temporal, config.gateway, config.dunning);
  }

  /**
   * The payment adapter; Stripe's API key comes from the environment only (STRIPE_API_KEY, or a file
   * named by STRIPE_API_KEY_FILE).
   */
  static PaymentGateway gateway(WorkerConfiguration config) {
    return switch (config.gateway) {
      case "sandbox" -> new SandboxGateway(InstantSource.system());
      case "stripe" -> new StripeGateway(StripeSettings.fromEnvironment(SecretFiles.resolve(System.getenv())));
      default -> throw new IllegalArgumentException(
          "gateway must be \"sandbox\" or \"stripe\" (got \"" + config.gateway + "\")");
    };
  }
}
