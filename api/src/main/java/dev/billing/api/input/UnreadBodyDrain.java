package dev.billing.api.input;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads and discards what is left of a request body before the answer goes out (a request refused
 * before its body was read: 401, 403, 404, 405, 415). Otherwise Jetty closes the connection under a
 * client that is still sending, which then sees a reset instead of the answer, and cannot tell
 * whether a POST was processed. Bounded: beyond {@link #MAX_DRAINED_BYTES} the connection is let
 * go.
 */
public final class UnreadBodyDrain implements ContainerResponseFilter {
  static final int MAX_DRAINED_BYTES = 1024 * 1024;

  @Override
  public void filter(ContainerRequestContext request, ContainerResponseContext response) {
    try {
      if (!request.hasEntity()) {
        return;
      }
      InputStream in = request.getEntityStream();
      byte[] sink = new byte[8192];
      long drained = 0;
      for (int n; drained < MAX_DRAINED_BYTES && (n = in.read(sink)) >= 0; ) {
        drained += n;
      }
    } catch (IOException | IllegalStateException e) {
      // Already read and closed by the resource, or the client went away: nothing left to do.
    }
  }
}
