package dev.billing.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.billing.api.openapi.OpenApiResource;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.glassfish.jersey.server.model.Parameter;
import org.glassfish.jersey.server.model.Resource;
import org.glassfish.jersey.server.model.ResourceMethod;
import org.junit.jupiter.api.Test;

/**
 * The dev stack's own endpoints are in the API's OpenAPI description (the api module's tests cover
 * the rest but cannot see these classes), marked x-dev-stack-only and operator-only: each method
 * and path, its query parameters and whether it takes a body.
 */
class DevEndpointsInOpenApiTest {

  /** What {@link DevApiApplication} registers beside the production API. */
  private static final List<Class<?>> DEV_RESOURCES =
      List.of(
          DevClockResource.class,
          DevOutboxResource.class,
          DevChargesResource.class,
          DevWebhooksResource.class);

  @Test
  void everyDevEndpointIsDescribed() throws Exception {
    JsonNode doc;
    try (InputStream in = OpenApiResource.class.getResourceAsStream(OpenApiResource.DOCUMENT)) {
      doc = new ObjectMapper().readTree(in);
    }
    List<String> gaps = new ArrayList<>();
    List<String> described = new ArrayList<>();
    for (Class<?> type : DEV_RESOURCES) {
      collect(Resource.from(type), "", doc, gaps, described);
    }

    assertThat(described)
        .containsExactlyInAnyOrder(
            "GET /v1/dev/clock",
            "POST /v1/dev/clock/advance",
            "GET /v1/dev/outbox",
            "GET /v1/dev/charges",
            "POST /v1/dev/charges/{transactionId}/refund",
            "GET /v1/dev/webhooks");
    assertThat(gaps).isEmpty();
  }

  private static void collect(
      Resource resource, String parent, JsonNode doc, List<String> gaps, List<String> described) {
    String path = (parent + "/" + resource.getPath()).replaceAll("/{2,}", "/");
    path = path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    for (ResourceMethod method : resource.getResourceMethods()) {
      String key = method.getHttpMethod() + " " + path;
      described.add(key);
      JsonNode operation =
          doc.path("paths").path(path).path(method.getHttpMethod().toLowerCase(Locale.ROOT));
      if (operation.isMissingNode()) {
        gaps.add(key + ": not in the document");
        continue;
      }
      if (!operation.path("x-dev-stack-only").asBoolean(false)) {
        gaps.add(key + ": not marked x-dev-stack-only");
      }
      if (!operation.path("x-access").asText().equals("operator")) {
        gaps.add(key + ": x-access must be operator (everything outside /v1/accounts is)");
      }
      boolean body = false;
      for (Parameter parameter : method.getInvocable().getParameters()) {
        switch (parameter.getSource()) {
          case QUERY, PATH, HEADER -> {
            String in = parameter.getSource().name().toLowerCase(Locale.ROOT);
            boolean declared = false;
            for (JsonNode p : operation.path("parameters")) {
              declared |=
                  p.path("in").asText().equals(in)
                      && p.path("name").asText().equals(parameter.getSourceName());
            }
            if (!declared) {
              gaps.add(key + ": " + in + " parameter " + parameter.getSourceName() + " missing");
            }
          }
          case ENTITY, UNKNOWN -> body = true;
          default -> {}
        }
      }
      if (body != operation.has("requestBody")) {
        gaps.add(key + ": the document " + (body ? "lacks" : "has") + " a request body");
      }
    }
    for (Resource child : resource.getChildResources()) {
      collect(child, path, doc, gaps, described);
    }
  }
}
