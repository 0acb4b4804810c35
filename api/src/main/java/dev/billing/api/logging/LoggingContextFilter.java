package dev.billing.api.logging;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.Provider;
import org.slf4j.MDC;

/**
 * Puts the request's {@code accountId} and {@code subscriptionId} (from the path) into the logging
 * context, so the API's JSON log lines about a subscription carry the same field as the worker's.
 * Removed again when the response is written (Jetty reuses threads).
 */
@Provider
public final class LoggingContextFilter implements ContainerRequestFilter, ContainerResponseFilter {
  public static final String ACCOUNT_ID = "accountId";
  public static final String SUBSCRIPTION_ID = "subscriptionId";

  @Override
  public void filter(ContainerRequestContext request) {
    MultivaluedMap<String, String> path = request.getUriInfo().getPathParameters();
    put(ACCOUNT_ID, path.getFirst(ACCOUNT_ID));
    put(SUBSCRIPTION_ID, path.getFirst(SUBSCRIPTION_ID));
  }

  @Override
  public void filter(ContainerRequestContext request, ContainerResponseContext response) {
    MDC.remove(ACCOUNT_ID);
    MDC.remove(SUBSCRIPTION_ID);
  }

  private static void put(String key, String value) {
    if (value != null && value.length() <= 255) {
      MDC.put(key, value);
    }
  }
}
