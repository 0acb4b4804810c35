package dev.billing.api.support;

import com.codahale.metrics.MetricRegistry;
import dev.billing.api.ApiComponents;
import dev.billing.api.ApiConfiguration;
import dev.billing.api.ApiJson;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.testing.junit5.DropwizardExtension;
import io.dropwizard.testing.junit5.ResourceExtension;
import jakarta.ws.rs.client.WebTarget;
import java.util.function.Consumer;

/**
 * The API's resources, filters and mappers as the application registers them ({@link
 * ApiComponents}), served by {@link ResourceExtension} on a {@link ResourceTestStack}: the real
 * stores, fakes of Temporal. For tests whose subject is HTTP behaviour: input, status codes,
 * problem bodies, access rules, idempotency keys, paging. Declare it as a static field of a class
 * annotated {@code @ExtendWith(DropwizardExtensionsSupport.class)}.
 */
public final class ResourceTestSupport extends ApiRequests implements DropwizardExtension {
  private final ResourceExtension resources;
  private final ResourceTestStack stack;

  private ResourceTestSupport(ResourceExtension resources, ResourceTestStack stack) {
    super(stack.keyService, stack.store);
    this.resources = resources;
    this.stack = stack;
  }

  /** The production configuration's defaults (api.yml's, where they matter to a resource). */
  public static ResourceTestSupport start() {
    return start(config -> {});
  }

  /**
   * @param configure changes the configuration before the components are built from it
   */
  public static ResourceTestSupport start(Consumer<ApiConfiguration> configure) {
    ResourceTestStack stack = new ResourceTestStack();
    ApiConfiguration config = new ApiConfiguration();
    config.dueWindow = "PT6H"; // api.yml's default
    configure.accept(config);
    var mapper = Jackson.newObjectMapper();
    ApiJson.configure(mapper);
    // Dropwizard's default mappers stay off, as the application turns them off.
    var builder =
        ResourceExtension.builder()
            .setMapper(mapper)
            .setRegisterDefaultExceptionMappers(false)
            .bootstrapLogging(false);
    ApiComponents.of(config, stack.dependencies(), mapper, new MetricRegistry())
        .forEach(builder::addProvider);
    builder
        .addResource(new FailingResource())
        .addResource(new OperatorOnlyProbe())
        .addResource(new JsonLimitsProbe());
    return new ResourceTestSupport(builder.build(), stack);
  }

  public ResourceTestStack stack() {
    return stack;
  }

  @Override
  protected WebTarget root() {
    return resources.target("");
  }

  @Override
  protected boolean workflowExists(String subscriptionId) {
    return stack.workflows.exists(subscriptionId);
  }

  @Override
  public void before() throws Throwable {
    resources.before();
  }

  @Override
  public void after() throws Throwable {
    try {
      resources.after();
    } finally {
      stack.close();
    }
  }
}
