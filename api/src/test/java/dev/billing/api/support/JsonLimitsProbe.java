package dev.billing.api.support;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.input.StrictJsonBodies;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.io.InputStream;

/**
 * Bodies that meet Jackson's read constraints where the application's limits never let them: within
 * the body limit, the body check's own string and depth limits come first, and after the body check
 * no shipped endpoint reads JSON that binding does not wrap with its field.
 */
@Path("/test/json-limits")
@Consumes(MediaType.APPLICATION_JSON)
public final class JsonLimitsProbe {
  public static final int MAX_STRING = 100;
  public static final int MAX_NAME = 100;
  public static final int MAX_NUMBER = 50;
  public static final int MAX_DEPTH = 4;
  private static final JsonFactory STRICT = JsonFactory.builder()
      .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(MAX_STRING)
          .maxNameLength(MAX_NAME).maxNumberLength(MAX_NUMBER).maxNestingDepth(MAX_DEPTH).build())
      .build();

  /** Read with a parser whose limits are far lower than the application's. */
  @POST
  @Path("/strict")
  public void strict(InputStream body) throws IOException {
    try (JsonParser parser = STRICT.createParser(body)) {
      while (parser.nextToken() != null) {
        parser.getText();
      }
    }
  }

  /** Put through the body check a second time, with {@link #STRICT}'s limits: see {@link Checked}. */
  @POST
  @Path("/checked")
  public void checked(JsonNode body) {}

  /** A bare number, bound by the application's own Jackson provider. */
  @POST
  @Path("/integer")
  public void integer(Integer body) {}

  /** Adds the strict body check to {@link #checked} only, besides the application's own. */
  public static final class Checked implements DynamicFeature {
    @Override
    public void configure(ResourceInfo resource, FeatureContext context) {
      if (resource.getResourceClass() == JsonLimitsProbe.class
          && resource.getResourceMethod().getName().equals("checked")) {
        context.register(new StrictJsonBodies(STRICT));
      }
    }
  }
}
