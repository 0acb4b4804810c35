package dev.billing.api;

import com.github.benmanes.caffeine.cache.CaffeineSpec;
import dev.billing.api.auth.ApiAuthentication;
import dev.billing.api.auth.BillingPrincipal;
import dev.billing.api.auth.CredentialSafeLogging;
import dev.billing.api.auth.keys.ApiKeyAuthenticator;
import dev.billing.api.auth.keys.ApiKeyResource;
import dev.billing.api.auth.keys.ApiKeyService;
import dev.billing.api.auth.keys.ApiKeyStore;
import dev.billing.api.auth.keys.ApiKeysCommand;
import dev.billing.api.errors.ApiProblemMapper;
import dev.billing.api.errors.DependencyUnavailableMapper;
import dev.billing.api.errors.InvalidPageTokenMapper;
import dev.billing.api.errors.JsonFieldMapper;
import dev.billing.api.errors.JsonLimitsMapper;
import dev.billing.api.errors.MalformedJsonMapper;
import dev.billing.api.errors.ProblemErrorHandler;
import dev.billing.api.errors.UnexpectedExceptionMapper;
import dev.billing.api.errors.WebApplicationExceptionMapper;
import dev.billing.api.input.PathParamFilter;
import dev.billing.api.input.StrictJsonBodies;
import dev.billing.api.input.UnreadBodyDrain;
import dev.billing.api.logging.LoggingContextFilter;
import dev.billing.api.ops.ReconciliationResource;
import dev.billing.api.ops.ReconciliationRuns;
import dev.billing.api.resources.BillingDueResource;
import dev.billing.api.resources.ChangeStillRunningMapper;
import dev.billing.api.resources.ReceiptResource;
import dev.billing.api.resources.SubscriptionLifecycleResource;
import dev.billing.api.resources.SubscriptionResource;
import dev.billing.api.subscriptions.SubscriptionWorkflows;
import dev.billing.api.webhooks.PaymentEventSignals;
import dev.billing.api.webhooks.WebhookResource;
import dev.billing.api.webhooks.WebhookSettings;
import dev.billing.runtime.ConfigSources;
import dev.billing.runtime.DynamoConnection;
import dev.billing.runtime.PageTokenKeys;
import dev.billing.runtime.ProcessConnections;
import dev.billing.store.ReconciliationReports;
import dev.billing.store.events.PaymentEventStore;
import io.dropwizard.auth.CachingAuthenticator;
import io.dropwizard.core.Application;
import io.dropwizard.core.server.AbstractServerFactory;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import java.time.InstantSource;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.component.LifeCycle;
import java.util.Optional;

/**
 * The REST API: {@code java -jar billing-api-all.jar server api.yml}. Resources read from DynamoDB and
 * change subscriptions only through their workflows.
 */
public class BillingApiApplication extends Application<ApiConfiguration> {

  /** Set by the production {@link #connect}; the payment-events store uses the same connection. */
  private ProcessConnections connections;
  private byte[] pageTokenKey;

  public static void main(String[] args) throws Exception {
    new BillingApiApplication().run(args.length == 0 ? new String[] {"server", "api.yml"} : args);
  }

  @Override
  public String getName() {
    return "billing-api";
  }

  @Override
  public void initialize(Bootstrap<ApiConfiguration> bootstrap) {
    bootstrap.setConfigurationSourceProvider(ConfigSources.fileOrClasspathWithEnv());
    bootstrap.addCommand(new ApiKeysCommand());
  }

  @Override
  public void run(ApiConfiguration config, Environment environment) {
    CredentialSafeLogging.install();
    ApiJson.configure(environment.getObjectMapper());
    ApiInfrastructure infrastructure = connect(config, environment);

    var workflows = new SubscriptionWorkflows(infrastructure.client(), infrastructure.taskQueue());
    var reconciliations = new ReconciliationRuns(infrastructure.client(), infrastructure.taskQueue(),
        infrastructure.clock());
    environment.jersey().register(
        new SubscriptionResource(infrastructure.store(), workflows, reconciliations, infrastructure.clock(),
            config.dueWindow()));
    environment.jersey().register(new SubscriptionLifecycleResource(infrastructure.store(), workflows,
        reconciliations, infrastructure.clock()));
    environment.jersey().register(new ChangeStillRunningMapper());
    environment.jersey().register(new ReceiptResource(infrastructure.store(), infrastructure.clock()));
    environment.jersey().register(new BillingDueResource(infrastructure.store()));
    environment.jersey().register(WebhookResource.create(config.webhooks, paymentEvents(config),
        PaymentEventSignals.temporal(infrastructure.client()), infrastructure.clock(),
        stripeChargeMethods(config.webhooks, System.getenv())));
    environment.jersey().register(new LoggingContextFilter());
    environment.jersey().register(new ReconciliationResource(reconciliationReports(config),
        reconciliations, infrastructure.store(), infrastructure.clock()));

    // Who may call what, and what a body may carry: registered for the whole application, so every
    // resource (including those added later) is covered without doing anything.
    ApiKeyStore keyStore = apiKeys(config);
    CachingAuthenticator<String, BillingPrincipal> cachedKeys = new CachingAuthenticator<>(
        environment.metrics(), new ApiKeyAuthenticator(keyStore), CaffeineSpec.parse(config.auth.keyCache()));
    ApiAuthentication.register(environment, config.auth, cachedKeys, devOperatorKey());
    environment.jersey().register(new PathParamFilter());
    environment.jersey().register(new StrictJsonBodies(environment.getObjectMapper().getFactory()));
    environment.jersey().register(new UnreadBodyDrain());
    environment.jersey().register(new ApiKeyResource(new ApiKeyService(keyStore, InstantSource.system()),
        keyId -> cachedKeys.invalidateAll(token -> token.startsWith("bk_" + keyId + "_"))));

    // These give every error the same problem+json shape. Dropwizard's default mappers would compete
    // with them, so they stay off even when a deployment's YAML forgets to turn them off.
    if (config.getServerFactory() instanceof AbstractServerFactory server) {
      server.setRegisterDefaultExceptionMappers(false);
    }
    environment.getApplicationContext().setErrorHandler(new ProblemErrorHandler.Servlet());
    environment.lifecycle().addEventListener(new LifeCycle.Listener() {
      @Override
      public void lifeCycleStarting(LifeCycle event) {
        if (event instanceof Server server) {
          server.setErrorHandler(new ProblemErrorHandler.Server());
        }
      }
    });
    environment.jersey().register(new ApiProblemMapper());
    environment.jersey().register(new MalformedJsonMapper());
    environment.jersey().register(new JsonFieldMapper());
    environment.jersey().register(new JsonLimitsMapper());
    environment.jersey().register(new InvalidPageTokenMapper());
    environment.jersey().register(new WebApplicationExceptionMapper());
    environment.jersey().register(new DependencyUnavailableMapper());
    environment.jersey().register(new UnexpectedExceptionMapper());

    addExtensions(environment, infrastructure);
  }

  /**
   * Connects to DynamoDB and Temporal, both closed with the server and both with a health check. The
   * dev stack and the tests override it to supply their own infrastructure or clock.
   */
  protected ApiInfrastructure connect(ApiConfiguration config, Environment environment) {
    connections = ProcessConnections.open(config, environment, "api");
    pageTokenKey = PageTokenKeys.fromSecretOrRandom(config.pageTokenSecret);
    return new ApiInfrastructure(connections.temporal().client(), config.temporal.taskQueue(),
        connections.store(pageTokenKey), InstantSource.system());
  }

  /**
   * Where webhook deliveries are recorded: the payment-events table, on the connection {@link
   * #connect} opened. An override of connect that does not call it overrides this too.
   */
  protected PaymentEventStore paymentEvents(ApiConfiguration config) {
    if (connections == null) {
      throw new IllegalStateException("connect() was overridden without calling it: override"
          + " paymentEvents() as well");
    }
    DynamoConnection dynamo = connections.dynamo();
    return new PaymentEventStore(dynamo.client(), dynamo.tableNames().paymentEvents(), pageTokenKey);
  }

  /**
   * Where API keys are stored: the billing table, on the connection {@link #connect} opened. An
   * override of connect that does not call it overrides this too.
   */
  protected ApiKeyStore apiKeys(ApiConfiguration config) {
    if (connections == null) {
      throw new IllegalStateException("connect() was overridden without calling it: override"
          + " apiKeys() as well");
    }
    return new ApiKeyStore(connections.dynamo().client(), connections.dynamo().tableNames().billing());
  }

  /**
   * The dev stack's operator key. The production API has none, whatever its configuration says:
   * only the dev stack's application overrides this.
   */
  protected Optional<String> devOperatorKey() {
    return Optional.empty();
  }

  /** Where reconciliation reports are read: the billing table, on the connection {@link #connect} opened. */
  protected ReconciliationReports reconciliationReports(ApiConfiguration config) {
    if (connections == null) {
      throw new IllegalStateException("connect() was overridden without calling it: override"
          + " reconciliationReports() as well");
    }
    DynamoConnection dynamo = connections.dynamo();
    return new ReconciliationReports(dynamo.client(), dynamo.tableNames().billing(), pageTokenKey);
  }

  /** Registers more resources; the production API has none (the dev stack adds its dev-only ones). */
  protected void addExtensions(Environment environment, ApiInfrastructure infrastructure) {}

  /**
   * Reads a disputed Charge's payment method from Stripe, which tells a returned bank debit from a
   * card chargeback. With no STRIPE_API_KEY on the API (a restricted key reading Charges is
   * enough), disputes are judged by their own fields only, and an ACH return can be missed.
   */
  private static java.util.function.Function<String, java.util.Optional<String>> stripeChargeMethods(
      WebhookSettings webhooks, java.util.Map<String, String> env) {
    if (webhooks.stripeSecret() == null || webhooks.stripeSecret().isBlank()) {
      return charge -> java.util.Optional.empty(); // no Stripe endpoint
    }
    String key = env.get(dev.billing.activities.payments.stripe.StripeSettings.API_KEY_ENV);
    if (key == null || key.isBlank()) {
      org.slf4j.LoggerFactory.getLogger(BillingApiApplication.class).warn("{} is not set: Stripe"
          + " disputes are judged without their charge, and a returned bank debit can be missed",
          dev.billing.activities.payments.stripe.StripeSettings.API_KEY_ENV);
      return charge -> java.util.Optional.empty();
    }
    return new dev.billing.activities.payments.stripe.StripeChargeMethods(
        dev.billing.activities.payments.stripe.StripeSettings.fromEnvironment(env))::typeOf;
  }
}
