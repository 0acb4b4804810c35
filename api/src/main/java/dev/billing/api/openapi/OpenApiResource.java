package dev.billing.api.openapi;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * {@code GET /v1/openapi.json}: the OpenAPI 3.1 description of this API, kept in the repository
 * beside the code it describes (the tests in {@code dev.billing.api.openapi} hold the two
 * together). {@code auth.AccessFilter} serves it without a credential: it describes the endpoints
 * and reaches no data.
 */
@Path(OpenApiResource.PATH)
public final class OpenApiResource {
  public static final String PATH = "/v1/openapi.json";

  /** Where the document is on the classpath. */
  public static final String DOCUMENT = "/openapi/openapi.json";

  private final byte[] document;

  /** Reads the document now, so a build without it fails at start-up, not on a request. */
  public OpenApiResource() {
    this.document = read();
  }

  @GET
  @Produces(MediaType.APPLICATION_JSON)
  public Response get() {
    return Response.ok(document, MediaType.APPLICATION_JSON_TYPE).build();
  }

  static byte[] read() {
    try (InputStream in = OpenApiResource.class.getResourceAsStream(DOCUMENT)) {
      if (in == null) {
        throw new IllegalStateException("no " + DOCUMENT + " on the classpath");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
