package dev.billing.activities.payments.stripe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.extension.ResponseTransformerV2;
import com.github.tomakehurst.wiremock.http.QueryParameter;
import com.github.tomakehurst.wiremock.http.Request;
import com.github.tomakehurst.wiremock.http.Response;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Applies a list request's filters ({@code created[gte]}, {@code created[lt]}, {@code customer}) to
 * the objects a stub holds, as Stripe does, so a stub can hold everything the account has and the
 * adapter gets only what it asked for. For stubs that name it with {@code withTransformers}.
 */
final class StripeListFilter implements ResponseTransformerV2 {
  static final String NAME = "stripe-list-filter";
  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  public Response transform(Response response, ServeEvent serveEvent) {
    Request request = serveEvent.getRequest();
    try {
      ObjectNode body = (ObjectNode) JSON.readTree(response.getBodyAsString());
      ArrayNode kept = JSON.createArrayNode();
      for (JsonNode item : body.path("data")) {
        long created = item.path("created").asLong();
        if (param(request, "created[gte]") != null
            && created < Long.parseLong(param(request, "created[gte]"))) {
          continue;
        }
        if (param(request, "created[lt]") != null
            && created >= Long.parseLong(param(request, "created[lt]"))) {
          continue;
        }
        if (param(request, "customer") != null
            && !param(request, "customer").equals(item.path("customer").asText())) {
          continue;
        }
        kept.add(item);
      }
      body.set("data", kept);
      return Response.Builder.like(response).but().body(JSON.writeValueAsString(body)).build();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String param(Request request, String name) {
    QueryParameter value = request.queryParameter(name);
    return value != null && value.isPresent() ? value.firstValue() : null;
  }

  @Override
  public boolean applyGlobally() {
    return false;
  }

  @Override
  public String getName() {
    return NAME;
  }
}
