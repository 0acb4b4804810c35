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
 * Bodies that fail on Jackson's limits after the body check, which no shipped endpoint has: the body
 * check meets every read constraint first, and binding a field wraps its failures with the field.
 */
@Path("/test/json-limits")
@Consumes(MediaType.APPLICATION_JSON)
public final class JsonLimitsProbe {
  public static final int MAX_STRING = 100;
  private static final JsonFactory STRICT = JsonFactory.builder()
      .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(MAX_STRING).build()).build();

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

  /** A bare number, bound by the application's own Jackson provider. */
  @POST
  @Path("/integer")
  public void integer(Integer body) {}
}
