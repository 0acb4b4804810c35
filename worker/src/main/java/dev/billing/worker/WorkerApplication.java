package dev.billing.worker;

import dev.billing.activities.payments.PaymentGateway;
import dev.billing.activities.payments.sandbox.SandboxGateway;
import dev.billing.activities.payments.sandbox.SandboxSettings;
import dev.billing.activities.payments.stripe.StripeGateway;
import dev.billing.activities.payments.stripe.StripeSettings;
import dev.billing.runtime.ConfigSources;
import dev.billing.runtime.DeliberateActivityFailureLogging;
import dev.billing.runtime.PageTokenKeys;
import dev.billing.runtime.ProcessConnections;
import dev.billing.runtime.SecretFiles;
import dev.billing.worker.delivery.EventDelivery;
import dev.billing.worker.delivery.EventSweepScheduling;
import dev.billing.worker.observability.BusinessMetrics;
import dev.billing.worker.observability.ObservabilityInterceptor;
import dev.billing.worker.observability.UpdateRefusalLogging;
import dev.billing.worker.reconciliation.ReconciliationScheduling;
import io.dropwizard.core.Application;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import io.temporal.client.WorkflowClient;
import io.temporal.worker.WorkerFactory;
import java.time.InstantSource;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker process: {@code java -jar billing-worker-all.jar server worker.yml}. Dropwizard gives
 * it YAML configuration with environment overrides, health checks and metrics on its admin port.
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
    bootstrap.addCommand(new SetupCommand());
  }

  @Override
  public void run(WorkerConfiguration config, Environment environment) {
    UpdateRefusalLogging.install();
    DeliberateActivityFailureLogging.install();
    ProcessConnections connections = ProcessConnections.open(config, environment, "worker");
    // Once: every *_FILE secret is read here, not again by each adapter.
    Map<String, String> environmentWithSecrets = SecretFiles.resolve(System.getenv());
    EmailNotifiers email =
        EmailNotifiers.create(
            config.mail,
            environmentWithSecrets,
            connections.notificationLog(),
            InstantSource.system());
    byte[] pageTokenKey = PageTokenKeys.fromSecretOrRandom(config.pageTokenSecret);
    var store = connections.store(pageTokenKey);
    PaymentGateway gateway = gateway(config, environmentWithSecrets);
    WorkflowClient client = connections.temporal().client();
    String taskQueue = config.temporal.taskQueue();
    if (config.delivery.enabled()
        && (config.pageTokenSecret == null || config.pageTokenSecret.isBlank())) {
      LOG.warn(
          "No BILLING_PAGE_TOKEN_SECRET on the worker: webhook deliveries cannot open the"
              + " endpoints' signing secrets; every attempt fails (secret_unreadable) and is retried"
              + " until the worker has the API's secret");
    }
    BusinessMetrics metrics = new BusinessMetrics(connections.metrics().registry());
    EventDelivery delivery =
        config.delivery.enabled()
            ? EventDelivery.of(
                    store, pageTokenKey, client, taskQueue, false, InstantSource.system())
                .withDisabling(config.delivery.disabling(), metrics::endpointDisabled)
            : null;
    var adapters = new BillingWorker.Adapters(store, gateway, email, config.dunning);
    if (delivery != null) {
      adapters = adapters.withDelivery(delivery.handoff());
    }
    WorkerFactory factory =
        BillingWorker.create(
            client,
            taskQueue,
            adapters,
            config.paymentActivitiesPerSecond,
            new ObservabilityInterceptor(metrics));
    BillingWorker.registerReconciliation(
        factory.getWorker(taskQueue),
        BillingWorker.reconciliation(
            connections.dynamo().client(),
            connections.dynamo().tableNames(),
            store,
            pageTokenKey,
            client,
            taskQueue,
            gateway,
            config.gateway,
            config.dunning,
            InstantSource.system(),
            metrics::finding));
    if (delivery != null) {
      delivery.register(factory, taskQueue);
    }
    environment
        .lifecycle()
        .manage(
            new SearchAttributeRegistration(
                connections.temporal().stubs(), config.temporal.namespace()));
    environment.lifecycle().manage(new WorkerLifecycle(factory));
    // After the worker: the first cron run may start at once and needs it polling.
    environment
        .lifecycle()
        .manage(ReconciliationScheduling.of(client, taskQueue, config.reconciliation));
    environment.lifecycle().manage(new EventSweepScheduling(client, taskQueue, config.delivery));
    LOG.info(
        "Worker polling task queue {} (payments at most {}/s) on {} with gateway {}, dunning {},"
            + " mail {}",
        taskQueue,
        config.paymentActivitiesPerSecond,
        config.temporal,
        config.gateway,
        config.dunning,
        email.smtp());
  }

  /**
   * The payment adapter; Stripe's API key comes from the environment only (STRIPE_API_KEY, or a
   * file named by STRIPE_API_KEY_FILE, already resolved in {@code environment}).
   */
  static PaymentGateway gateway(WorkerConfiguration config, Map<String, String> environment) {
    return switch (config.gateway) {
      case "sandbox" ->
          new SandboxGateway(InstantSource.system(), SandboxSettings.fromEnvironment(environment));
      case "stripe" -> new StripeGateway(StripeSettings.fromEnvironment(environment));
      default ->
          throw new IllegalArgumentException(
              "gateway must be \"sandbox\" or \"stripe\" (got \"" + config.gateway + "\")");
    };
  }
}
