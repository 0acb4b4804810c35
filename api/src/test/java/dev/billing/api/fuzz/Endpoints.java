package dev.billing.api.fuzz;

import dev.billing.api.auth.AccountConfined;
import dev.billing.api.openapi.OpenApiResource;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.model.Parameter;
import org.glassfish.jersey.server.model.Resource;
import org.glassfish.jersey.server.model.ResourceMethod;

/**
 * Every endpoint of the running application, read from Jersey's resource model: whatever a resource
 * declares (path, query and header parameters, a body) is what the fuzzer varies, so an endpoint
 * added later is fuzzed without anyone listing it.
 */
final class Endpoints {
  private Endpoints() {}

  /**
   * @param template e.g. /v1/accounts/{accountId}/subscriptions/{subscriptionId}/cancel
   * @param bodyType the Java type of the entity parameter, or null when the method takes no body
   */
  record Endpoint(
      String method,
      String template,
      List<String> pathParams,
      List<String> queryParams,
      List<String> headerParams,
      Class<?> bodyType,
      boolean consumesJson,
      boolean accountConfined) {

    boolean hasBody() {
      return bodyType != null;
    }

    boolean isWebhook() {
      return template.startsWith("/v1/webhooks/");
    }

    /** Open to every caller, with or without a credential: the API's own description. */
    boolean isOpen() {
      return template.equals(OpenApiResource.PATH);
    }

    boolean isAccountScoped() {
      return template.startsWith("/v1/accounts/{accountId}/");
    }

    /** Outside /v1/accounts, yet open to account credentials for their own account's data. */
    boolean isAccountConfined() {
      return accountConfined;
    }

    @Override
    public String toString() {
      return method + " " + template;
    }
  }

  /**
   * @param excludedPrefixes paths left out (test-only resources that fail on purpose)
   */
  static List<Endpoint> of(ResourceConfig config, Set<String> excludedPrefixes) {
    Set<Class<?>> classes = new LinkedHashSet<>(config.getClasses());
    config.getInstances().forEach(instance -> classes.add(instance.getClass()));
    List<Endpoint> endpoints = new ArrayList<>();
    for (Class<?> type : classes) {
      if (type.isAnnotationPresent(Path.class)) {
        collect(Resource.from(type), "", endpoints);
      }
    }
    endpoints.removeIf(e -> excludedPrefixes.stream().anyMatch(e.template()::startsWith));
    endpoints.sort(Comparator.comparing(Endpoint::toString));
    return List.copyOf(endpoints);
  }

  private static void collect(Resource resource, String parent, List<Endpoint> into) {
    String path = join(parent, resource.getPath());
    for (ResourceMethod method : resource.getResourceMethods()) {
      List<String> pathParams = new ArrayList<>();
      List<String> queryParams = new ArrayList<>();
      List<String> headerParams = new ArrayList<>();
      Class<?> body = null;
      for (Parameter parameter : method.getInvocable().getParameters()) {
        switch (parameter.getSource()) {
          case PATH -> pathParams.add(parameter.getSourceName());
          case QUERY -> queryParams.add(parameter.getSourceName());
          case HEADER -> headerParams.add(parameter.getSourceName());
          // A body taken @Valid has no source annotation Jersey knows: UNKNOWN, still the entity.
          case ENTITY, UNKNOWN -> body = parameter.getRawType();
          default -> {}
        }
      }
      boolean json =
          method.getConsumedTypes().isEmpty()
              || method.getConsumedTypes().stream()
                  .anyMatch(type -> type.isCompatible(MediaType.APPLICATION_JSON_TYPE));
      into.add(
          new Endpoint(
              method.getHttpMethod(),
              path,
              List.copyOf(pathParams),
              List.copyOf(queryParams),
              List.copyOf(headerParams),
              body,
              json,
              method.getInvocable().getHandlingMethod() != null
                  && method
                      .getInvocable()
                      .getHandlingMethod()
                      .isAnnotationPresent(AccountConfined.class)));
    }
    for (Resource child : resource.getChildResources()) {
      collect(child, path, into);
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
