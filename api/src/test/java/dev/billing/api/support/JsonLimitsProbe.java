package dev.billing.api.support;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.io.InputStream;

/**
 * Bodies that meet Jackson's read constraints where the application's limits never let them: within
 * the body limit, the body check's own string limit comes first, and after the body check no
 * shipped endpoint reads JSON that binding does not wrap with its field.
 */
@Path("/test/json-limits")
@Consumes(MediaType.APPLICATION_JSON)
public final class JsonLimitsProbe {
  public static final int MAX_STRING = 100;
  private static final JsonFactory STRICT =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder().maxStringLength(MAX_STRING).build())
          .build();

  /** Read with a parser whose string limit is far lower than the application's. */
  @POST
  @Path("/strict")
  public void strict(InputStream body) throws IOException {
    try (JsonParser parser = STRICT.createParser(body)) {
      while (parser.nextToken() != null) {
        parser.getText();
      }
    }
  }

  /** A bare number, bound by the application's own Jackson provider. */
  @POST
  @Path("/integer")
  public void integer(Integer body) {}
}
