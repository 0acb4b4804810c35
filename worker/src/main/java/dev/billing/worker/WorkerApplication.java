package dev.billing.worker;

import dev.billing.activities.payments.PaymentGateway;
import dev.billing.activities.payments.sandbox.SandboxGateway;
import dev.billing.activities.payments.stripe.StripeGateway;
import dev.billing.activities.payments.stripe.StripeSettings;
import dev.billing.runtime.ConfigSources;
import dev.billing.runtime.PageTokenKeys;
import dev.billing.runtime.ProcessConnections;
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
    EmailNotifiers email = EmailNotifiers.create(config.mail, System.getenv(),
        connections.notificationLog(), InstantSource.system());
    var adapters = new BillingWorker.Adapters(
        connections.store(PageTokenKeys.random()), gateway(config), email, config.dunning);
    environment.lifecycle().manage(new WorkerLifecycle(BillingWorker.create(
        connections.temporal().client(), config.temporal.taskQueue(), adapters)));
    LOG.info("Worker polling task queue {} on {} with gateway {}, dunning {}, mail {}",
        config.temporal.taskQueue(), config.temporal, config.gateway, config.dunning, email.smtp());
  }

  /** The payment adapter; Stripe's API key comes from the environment only (STRIPE_API_KEY). */
  static PaymentGateway gateway(WorkerConfiguration config) {
    return switch (config.gateway) {
      case "sandbox" -> new SandboxGateway(InstantSource.system());
      case "stripe" -> new StripeGateway(StripeSettings.fromEnvironment(System.getenv()));
      default -> throw new IllegalArgumentException(
          "gateway must be \"sandbox\" or \"stripe\" (got \"" + config.gateway + "\")");
    };
  }
}
