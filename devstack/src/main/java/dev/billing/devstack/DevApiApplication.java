package dev.billing.devstack;

import dev.billing.activities.payments.sandbox.SandboxGateway;
import dev.billing.api.ApiConfiguration;
import dev.billing.api.ApiDependencies;
import dev.billing.api.BillingApiApplication;
import io.dropwizard.configuration.ResourceConfigurationSourceProvider;
import io.dropwizard.configuration.SubstitutingSourceProvider;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.commons.text.StringSubstitutor;
import org.eclipse.jetty.server.Server;

/**
 * The production API plus the dev-only resources (test clock, outbox, sandbox charges, what the dev
 * webhook receiver got). They exist only in this module, so no production jar can serve them.
 */
final class DevApiApplication extends BillingApiApplication {

  private final DevStackSettings settings;
  private final DevTemporal temporal;
  private final SandboxGateway gateway;
  private final DevMailServer mail;
  private final DevWebhooksResource webhooks;
  private final AtomicReference<Server> server = new AtomicReference<>();

  /**
   * @param webhooks what the dev stack's webhook receiver accepted
   */
  DevApiApplication(
      DevStackSettings settings,
      DevTemporal temporal,
      SandboxGateway gateway,
      DevMailServer mail,
      DevWebhooksResource webhooks) {
    // "Today" follows the test server's clock, so due dates and receipts move with it; the
    // configured
    // dev key acts as operator (the start-up log and the banner say so).
    super(
        (config, environment) ->
            ApiDependencies.connect(config, environment, temporal.clock())
                .withDevOperatorKey(settings.devApiKey()));
    this.settings = settings;
    this.temporal = temporal;
    this.gateway = gateway;
    this.mail = mail;
    this.webhooks = webhooks;
  }

  /** Runs the API's server command and returns the started Jetty server. */
  Server start() throws Exception {
    run("server", "dev-api.yml");
    Server started = server.get();
    if (started == null) {
      throw new IllegalStateException("the dev API did not start");
    }
    return started;
  }

  /**
   * Dropwizard's default resets the logging context to its own start-up console appender; the dev
   * stack configured its logging before anything started (DevLogging), and so did the tests.
   */
  @Override
  protected void bootstrapLogging() {}

  @Override
  public void initialize(Bootstrap<ApiConfiguration> bootstrap) {
    super.initialize(bootstrap);
    Map<String, String> values =
        Map.of(
            "apiPort", Integer.toString(settings.apiPort()),
            "adminPort", Integer.toString(settings.adminPort()),
            "temporalTarget", settings.temporalTarget(),
            "dynamoEndpoint", settings.dynamoEndpoint(),
            "dateKeyShards", Integer.toString(DevStackSettings.DEV_DATE_KEY_SHARDS),
            "pageTokenSecret", DevStackSettings.DEV_PAGE_TOKEN_SECRET);
    bootstrap.setConfigurationSourceProvider(
        new SubstitutingSourceProvider(
            new ResourceConfigurationSourceProvider(), new StringSubstitutor(values)));
  }

  @Override
  public void run(ApiConfiguration config, Environment environment) {
    environment.lifecycle().addServerLifecycleListener(server::set);
    super.run(config, environment);
    environment.jersey().register(new DevClockResource(temporal));
    environment.jersey().register(new DevOutboxResource(mail));
    environment.jersey().register(new DevChargesResource(gateway));
    environment.jersey().register(webhooks);
  }

  @Override
  protected void onFatalError(Throwable t) {
    // The default exits the JVM; in the dev stack (and its tests) the caller decides.
    throw new IllegalStateException("the dev API failed to start", t);
  }
}
