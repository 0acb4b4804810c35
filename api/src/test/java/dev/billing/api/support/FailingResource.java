package dev.billing.api.support;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

/**
 * Registered through the {@code addExtensions} seam: an endpoint that fails like a broken
 * dependency.
 */
@Path("/test/failure")
public final class FailingResource {
  public static final String SECRET_DETAIL =
      "connection to db-7.internal:5432 refused for user billing";

  @GET
  public String fail() {
    throw new IllegalStateException(SECRET_DETAIL);
  }
}
