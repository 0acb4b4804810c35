package dev.billing.api;

import dev.billing.api.auth.CredentialSafeLogging;
import dev.billing.api.auth.keys.ApiKeysCommand;
import dev.billing.api.errors.ProblemErrorHandler;
import dev.billing.runtime.ConfigSources;
import io.dropwizard.core.Application;
import io.dropwizard.core.server.AbstractServerFactory;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.component.LifeCycle;

/**
 * The REST API: {@code java -jar billing-api-all.jar server api.yml}. Resources read from DynamoDB
 * and change subscriptions only through their workflows.
 */
public class BillingApiApplication extends Application<ApiConfiguration> {

  /** Builds what the API runs against, once the configuration is read and before any resource. */
  @FunctionalInterface
  public interface Wiring {
    ApiDependencies dependencies(ApiConfiguration config, Environment environment);
  }

  private final Wiring wiring;

  /**
   * The production API: DynamoDB and Temporal as its configuration says ({@link
   * ApiDependencies#connect}).
   */
  public BillingApiApplication() {
    this(ApiDependencies::connect);
  }

  /** The API on the dependencies {@code wiring} builds: the dev stack's, or a test's. */
  public BillingApiApplication(Wiring wiring) {
    this.wiring = wiring;
  }

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
    ApiDependencies dependencies = wiring.dependencies(config, environment);
    ApiComponents.of(config, dependencies, environment.getObjectMapper(), environment.metrics())
        .forEach(environment.jersey()::register);

    // ApiComponents' mappers give every error the same problem+json shape. Dropwizard's default
    // mappers would compete with them, so they stay off even when a deployment's YAML forgets to
    // turn
    // them off; errors Jersey never sees (Jetty's own) get the same shape from the error handlers.
    if (config.getServerFactory() instanceof AbstractServerFactory server) {
      server.setRegisterDefaultExceptionMappers(false);
    }
    environment.getApplicationContext().setErrorHandler(new ProblemErrorHandler.Servlet());
    environment
        .lifecycle()
        .addEventListener(
            new LifeCycle.Listener() {
              @Override
              public void lifeCycleStarting(LifeCycle event) {
                if (event instanceof Server server) {
                  server.setErrorHandler(new ProblemErrorHandler.Server());
                }
              }
            });
  }
}
