package dev.billing.api.openapi;

import com.codahale.metrics.MetricRegistry;
import dev.billing.api.ApiComponents;
import dev.billing.api.ApiConfiguration;
import dev.billing.api.ApiJson;
import dev.billing.api.auth.AccountConfined;
import dev.billing.api.auth.OperatorOnly;
import dev.billing.api.support.ResourceTestStack;
import io.dropwizard.jackson.Jackson;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.MediaType;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.glassfish.jersey.server.model.Parameter;
import org.glassfish.jersey.server.model.Resource;
import org.glassfish.jersey.server.model.ResourceMethod;

/**
 * The resource methods the application serves, read from their JAX-RS annotations through Jersey's
 * resource model: for each, what the OpenAPI description must say about it.
 */
final class RegisteredOperations {
  private RegisteredOperations() {}

  static final String WEBHOOKS = "/v1/webhooks/";
  static final String ACCOUNT_SCOPE = "/v1/accounts/{accountId}/";

  /**
   * One resource method.
   *
   * @param template e.g. /v1/accounts/{accountId}/subscriptions/{subscriptionId}/cancel
   * @param entity the generic type of the body parameter; null when the method takes none
   */
  record Operation(
      String method,
      String template,
      Class<?> resource,
      Method javaMethod,
      List<String> pathParams,
      List<String> queryParams,
      List<String> headerParams,
      Type entity,
      boolean consumesJson) {

    /**
     * Who may call it, as auth.AccessFilter decides from the template, {@link OperatorOnly} and
     * {@link AccountConfined}.
     */
    String access() {
      if (template.equals(OpenApiResource.PATH)) {
        return "public";
      }
      if ((template + "/").startsWith(WEBHOOKS)) {
        return "webhook-signature";
      }
      boolean narrowed =
          javaMethod.isAnnotationPresent(OperatorOnly.class)
              || resource.isAnnotationPresent(OperatorOnly.class);
      boolean opened = javaMethod.isAnnotationPresent(AccountConfined.class);
      return (accountScoped() || opened) && !narrowed ? "account-or-operator" : "operator";
    }

    boolean accountScoped() {
      return (template + "/").startsWith(ACCOUNT_SCOPE);
    }

    /** Whether a credential is checked before the method runs. */
    boolean credentialed() {
      return access().equals("operator") || access().equals("account-or-operator");
    }

    boolean hasInputs() {
      return !pathParams.isEmpty()
          || !queryParams.isEmpty()
          || !headerParams.isEmpty()
          || entity != null;
    }

    @Override
    public String toString() {
      return method + " " + template;
    }
  }

  /** The resource classes the application registers, as {@link ApiComponents} builds them. */
  static List<Class<?>> resourceClasses() {
    ApiConfiguration config = new ApiConfiguration();
    config.dueWindow = "PT6H"; // api.yml's default, which the components read
    var mapper = Jackson.newObjectMapper();
    ApiJson.configure(mapper);
    try (ResourceTestStack stack = new ResourceTestStack()) {
      Set<Class<?>> classes = new LinkedHashSet<>();
      for (Object component :
          ApiComponents.of(config, stack.dependencies(), mapper, new MetricRegistry())) {
        if (component.getClass().isAnnotationPresent(Path.class)) {
          classes.add(component.getClass());
        }
      }
      return List.copyOf(classes);
    }
  }

  static List<Operation> of(List<Class<?>> resources) {
    List<Operation> operations = new ArrayList<>();
    for (Class<?> type : resources) {
      collect(type, Resource.from(type), "", operations);
    }
    operations.sort(Comparator.comparing(Operation::toString));
    return List.copyOf(operations);
  }

  private static void collect(
      Class<?> type, Resource resource, String parent, List<Operation> into) {
    String path = join(parent, resource.getPath());
    for (ResourceMethod method : resource.getResourceMethods()) {
      List<String> pathParams = new ArrayList<>();
      List<String> queryParams = new ArrayList<>();
      List<String> headerParams = new ArrayList<>();
      Type entity = null;
      for (Parameter parameter : method.getInvocable().getParameters()) {
        switch (parameter.getSource()) {
          case PATH -> pathParams.add(parameter.getSourceName());
          case QUERY -> queryParams.add(parameter.getSourceName());
          case HEADER -> headerParams.add(parameter.getSourceName());
          // A body taken @Valid has no source annotation Jersey knows: UNKNOWN, still the entity.
          case ENTITY, UNKNOWN -> entity = parameter.getType();
          default -> {}
        }
      }
      boolean json =
          method.getConsumedTypes().stream()
              .anyMatch(t -> t.isCompatible(MediaType.APPLICATION_JSON_TYPE));
      into.add(
          new Operation(
              method.getHttpMethod(),
              path,
              type,
              method.getInvocable().getDefinitionMethod(),
              List.copyOf(pathParams),
              List.copyOf(queryParams),
              List.copyOf(headerParams),
              entity,
              json));
    }
    for (Resource child : resource.getChildResources()) {
      collect(type, child, path, into);
    }
  }

  private static String join(String parent, String child) {
    if (child == null || child.isEmpty()) {
      return parent;
    }
    String joined = (parent + "/" + child).replaceAll("/{2,}", "/");
    return joined.length() > 1 && joined.endsWith("/")
        ? joined.substring(0, joined.length() - 1)
        : joined;
  }
}
