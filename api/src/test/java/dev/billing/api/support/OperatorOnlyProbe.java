package dev.billing.api.support;

import dev.billing.api.auth.OperatorOnly;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/**
 * An account-scoped endpoint narrowed to operators, as a lifecycle endpoint such as a refund would
 * be.
 */
@Path("/v1/accounts/{accountId}/test-operator-only")
@Produces(MediaType.APPLICATION_JSON)
public final class OperatorOnlyProbe {
  @GET
  @OperatorOnly
  public Map<String, String> get(@PathParam("accountId") String accountId) {
    return Map.of("accountId", accountId);
  }
}
