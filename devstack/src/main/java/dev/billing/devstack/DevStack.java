package dev.billing.devstack;

import dev.billing.activities.payments.sandbox.SandboxGateway;
import dev.billing.activities.payments.sandbox.SandboxSettings;
import dev.billing.activities.payments.sandbox.SandboxWebhooks;
import dev.billing.domain.DunningPolicy;
import dev.billing.runtime.DynamoConnection;
import dev.billing.runtime.DynamoSettings;
import dev.billing.runtime.PageTokenKeys;
import dev.billing.runtime.TemporalConnection;
import dev.billing.runtime.TemporalSettings;
import dev.billing.store.DynamoBillingStore;
import dev.billing.store.NotificationLog;
import dev.billing.store.StoreSettings;
import dev.billing.store.endpoints.WebhookEndpointStore;
import dev.billing.worker.BillingWorker;
import dev.billing.worker.EmailNotifiers;
import dev.billing.worker.delivery.EventDelivery;
import dev.billing.worker.delivery.EventSweepScheduling;
import dev.billing.worker.observability.BusinessMetrics;
import dev.billing.worker.observability.ObservabilityInterceptor;
import dev.billing.worker.observability.UpdateRefusalLogging;
import dev.billing.worker.reconciliation.ReconciliationScheduling;
import dev.billing.worker.reconciliation.ReconciliationSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.temporal.worker.WorkerFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Server;

/**
 * {@code ./billing dev}: the whole system in one JVM with nothing installed but a JDK. Temporal's
 * test server (gRPC), DynamoDB Local (HTTP), an SMTP server (GreenMail), the worker and the API,
 * wired exactly as in production except for the clock, which follows the test server so that {@code
 * POST /v1/dev/clock/advance} moves billing forward.
 */
public final class DevStack implements AutoCloseable {

  public static final String NAMESPACE = "default";

  private final DevStackSettings settings;
  private final DevTemporal temporal;
  private final EmbeddedDynamo dynamo;
  private final DynamoConnection workerDynamo;
  private final TemporalConnection workerTemporal;
  private final WorkerFactory worker;
  private final SandboxGateway gateway;
  private final DevMailServer mail;
  private final Server api;
  private final SandboxWebhookRelay webhooks;
  private final DevWebhookReceiver receiver;
  private final ReconciliationScheduling reconciliation;

  private DevStack(DevStackSettings settings) throws Exception {
    this.settings = settings;
    this.temporal = settings.temporal().start(settings);
    temporal.registerSearchAttributes(NAMESPACE);
    this.dynamo = new EmbeddedDynamo(settings.dynamoPort());

    this.workerDynamo = new DynamoConnection(DynamoSettings.local(dynamo.endpoint()));
    workerDynamo.start(); // creates the tables
    this.workerTemporal = new TemporalConnection(TemporalSettings.local(temporal.target()));
    // Stripe's live limit unless SANDBOX_REQUESTS_PER_SECOND says otherwise: a clock jump fires
    // weeks of reconciliation runs in a moment, and the test server skips the retry backoff that
    // in real time would let a test-mode window drain.
    this.gateway =
        new SandboxGateway(
            temporal.clock(),
            SandboxSettings.fromEnvironment(
                System.getenv(),
                SandboxSettings.defaults()
                    .withRequestsPerSecond(SandboxSettings.LIVE_MODE_REQUESTS_PER_SECOND)));
    this.mail = new DevMailServer();
    byte[] pageTokenKey = PageTokenKeys.random();
    var store =
        new DynamoBillingStore(
            workerDynamo.client(),
            workerDynamo.tableNames(),
            new StoreSettings(
                StoreSettings.DEFAULT_RECEIPT_RETENTION,
                pageTokenKey,
                DevStackSettings.DEV_DATE_KEY_SHARDS));
    // Message times follow the test clock, like everything the workflows write.
    var email =
        EmailNotifiers.of(
            mail.smtpSettings(),
            new NotificationLog(
                workerDynamo.client(),
                workerDynamo.tableNames().billing(),
                NotificationLog.DEFAULT_RETENTION),
            temporal.clock());
    String taskQueue = workerTemporal.settings().taskQueue();
    // Merchant events go to the endpoints registered, on localhost too (only here); attempts are
    // recorded at the test clock's time.
    byte[] endpointKey = DevStackSettings.DEV_PAGE_TOKEN_SECRET.getBytes(StandardCharsets.UTF_8);
    EventDelivery delivery =
        EventDelivery.of(
            store, endpointKey, workerTemporal.client(), taskQueue, true, temporal.clock());
    // The production worker's interceptor, so dev logs read the same (subscriptionId, one line per
    // refused update); its metrics go nowhere here.
    this.worker =
        BillingWorker.create(
            workerTemporal.client(),
            taskQueue,
            new BillingWorker.Adapters(store, gateway, email, DunningPolicy.DEFAULT)
                .withDelivery(delivery.handoff()),
            new ObservabilityInterceptor(new BusinessMetrics(new SimpleMeterRegistry())));
    delivery.register(worker, taskQueue);
    BillingWorker.registerReconciliation(
        worker.getWorker(taskQueue),
        BillingWorker.reconciliation(
            workerDynamo.client(),
            workerDynamo.tableNames(),
            store,
            pageTokenKey,
            workerTemporal.client(),
            taskQueue,
            gateway,
            "sandbox",
            DunningPolicy.DEFAULT,
            temporal.clock(),
            null));
    worker.start();
    // A Temporal Schedule on the real dev server; a cron workflow on the test server (no
    // Schedules).
    this.reconciliation =
        ReconciliationScheduling.of(workerTemporal.client(), taskQueue, settings.reconciliation());
    reconciliation.start();
    new EventSweepScheduling(workerTemporal.client(), taskQueue, settings.delivery()).start();

    DevWebhooksResource received = new DevWebhooksResource();
    this.receiver =
        new DevWebhookReceiver(
            settings.receiverPort(),
            new WebhookEndpointStore(
                workerDynamo.client(), workerDynamo.tableNames().billing(), endpointKey),
            received);
    this.api = new DevApiApplication(settings, temporal, gateway, mail, received).start();
    // Stopped by close(), after the webhook relay and before what the API calls; Jetty's own
    // shutdown hook would race that (and log a stack trace on every Ctrl-C).
    api.setStopAtShutdown(false);
    UpdateRefusalLogging
        .install(); // after the API: Dropwizard resets the logging context it configures
    this.webhooks =
        new SandboxWebhookRelay(gateway, temporal, apiUrl(), SandboxWebhooks.DEV_SECRET);
    webhooks.start();
  }

  /** Starts everything; the caller closes it (tests) or lets the JVM run (./billing dev). */
  public static DevStack start(DevStackSettings settings) throws Exception {
    return new DevStack(settings);
  }

  public static void main(String[] args) throws Exception {
    DevLogging logging;
    DevStackSettings settings;
    try {
      logging =
          DevLogging.configure(
              DevLogging.requestedLevel(List.of(args), System.getenv(DevLogging.LEVEL_VARIABLE)));
      settings = DevStackSettings.fromEnvironment();
    } catch (IllegalArgumentException e) {
      System.err.println("./billing dev: " + e.getMessage());
      System.exit(2);
      return;
    }
    DevStack stack = start(settings);
    Runtime.getRuntime().addShutdownHook(new Thread(stack::close, "devstack-shutdown"));
    System.out.println(stack.banner());
    logging.started();
  }

  /** The sandbox gateway, for tests that play its part (e.g. redeliver one of its webhooks). */
  SandboxGateway sandbox() {
    return gateway;
  }

  /** The Temporal frontend of the stack, for tests that look at workflow histories. */
  String temporalTarget() {
    return temporal.target();
  }

  /** The dev stack's stand-in for a merchant's webhook endpoint. */
  public String webhookReceiverUrl() {
    return receiver.url();
  }

  public String apiUrl() {
    return "http://localhost:" + settings.apiPort();
  }

  String banner() {
    return String.join(
        "\n",
        "",
        "Billing dev stack is up (everything in memory; stop with Ctrl-C).",
        "  API                " + apiUrl() + "/v1",
        "  Credential         -H 'Authorization: Bearer "
            + (settings.devApiKey().equals(DevStackSettings.DEFAULT_DEV_API_KEY)
                ? "dev"
                : "<BILLING_DEV_API_KEY>")
            + "'   (dev mode only: acts as operator)",
        "  Admin / health     http://localhost:" + settings.adminPort() + "/healthcheck",
        "  Temporal (gRPC)    "
            + temporal.target()
            + "   namespace "
            + NAMESPACE
            + ", task queue "
            + workerTemporal.settings().taskQueue()
            + (temporal.hasTestClock()
                ? "   (Java test server; a temporal CLI on the PATH gives"
                    + " the real dev server and its UI)"
                : "   (temporal CLI dev server)"),
        "  Temporal UI        "
            + (temporal.uiUrl() == null ? "none with the test server" : temporal.uiUrl()),
        "  DynamoDB Local     "
            + dynamo.endpoint()
            + "   tables "
            + workerDynamo.tableNames().billing()
            + ", "
            + workerDynamo.tableNames().history(),
        "  Test clock         "
            + (temporal.hasTestClock()
                ? "GET "
                    + apiUrl()
                    + "/v1/dev/clock, POST "
                    + apiUrl()
                    + "/v1/dev/clock/advance {\"duration\":\"P31D\"}"
                : "none: real time (BILLING_DEV_TEMPORAL=test-server for the test clock)"),
        "  SMTP (dev mailbox) 127.0.0.1:"
            + mail.port()
            + "   GET "
            + apiUrl()
            + "/v1/dev/outbox (?format=eml for the raw messages)",
        "  Sandbox charges    GET " + apiUrl() + "/v1/dev/charges",
        "  Webhook receiver   "
            + receiver.url()
            + "   (register it as a webhook endpoint; GET "
            + apiUrl()
            + "/v1/dev/webhooks)",
        "  Reconciliation     "
            + (reconciliation.mode() == ReconciliationScheduling.Mode.DISABLED
                ? "not scheduled"
                : reconciliation.mode() + " " + scheduled(settings.reconciliation()))
            + "; GET/POST "
            + apiUrl()
            + "/v1/ops/reconciliations",
        "");
  }

  /** What is scheduled, each with its cron, for the banner. */
  private static String scheduled(ReconciliationSettings settings) {
    List<String> jobs = new ArrayList<>();
    if (settings.enabled()) {
      jobs.add("daily \"" + settings.cron() + "\" UTC");
    }
    if (settings.webhookPoll().enabled()) {
      jobs.add("webhook poll \"" + settings.webhookPoll().cron() + "\" UTC");
    }
    return String.join(", ", jobs);
  }

  @Override
  public void close() {
    stopQuietly(webhooks::close);
    stopQuietly(api::stop);
    stopQuietly(receiver::close);
    stopQuietly(
        () -> {
          worker.shutdown();
          worker.awaitTermination(5, TimeUnit.SECONDS);
        });
    stopQuietly(workerTemporal::stop);
    stopQuietly(workerDynamo::stop);
    stopQuietly(dynamo::close);
    stopQuietly(mail::close);
    stopQuietly(temporal::close);
  }

  private interface Step {
    void run() throws Exception;
  }

  private static void stopQuietly(Step step) {
    try {
      step.run();
    } catch (Exception e) {
      // Shutting down: one component failing to stop must not keep the others running.
      System.err.println("dev stack: error while stopping: " + e);
    }
  }
}
