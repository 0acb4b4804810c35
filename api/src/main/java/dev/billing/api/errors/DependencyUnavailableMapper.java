package dev.billing.api.errors;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.RequestLimitExceededException;

/**
 * Temporal or DynamoDB unreachable, overloaded or too slow: not the caller's fault and usually
 * brief, so a 503 with Retry-After rather than a 500. Anything else falls through to the 500
 * mapper.
 */
public final class DependencyUnavailableMapper implements ExceptionMapper<RuntimeException> {
  private static final Logger LOG = LoggerFactory.getLogger(DependencyUnavailableMapper.class);
  private static final Set<Status.Code> TRANSIENT =
      Set.of(
          Status.Code.UNAVAILABLE, Status.Code.DEADLINE_EXCEEDED, Status.Code.RESOURCE_EXHAUSTED);
  static final String RETRY_AFTER_SECONDS = "5";

  private final UnexpectedExceptionMapper unexpected = new UnexpectedExceptionMapper();

  @Override
  public Response toResponse(RuntimeException e) {
    String dependency = unavailableDependency(e);
    if (dependency == null) {
      return unexpected.toResponse(e);
    }
    LOG.warn("{} unavailable: {}", dependency, e.toString());
    Problem problem =
        ApiProblem.unavailable(
                dependency
                    + " did not answer; retry the request "
                    + "(with the same Idempotency-Key when creating).")
            .toProblem();
    return Response.fromResponse(ProblemResponses.of(problem))
        .header("Retry-After", RETRY_AFTER_SECONDS)
        .build();
  }

  /** "Temporal", "DynamoDB", or null when the failure is not a transient dependency outage. */
  static String unavailableDependency(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof StatusRuntimeException s && TRANSIENT.contains(s.getStatus().getCode())) {
        return "Temporal";
      }
      if (t instanceof SdkClientException
          || t instanceof ProvisionedThroughputExceededException
          || t instanceof RequestLimitExceededException) {
        return "DynamoDB";
      }
    }
    return null;
  }
}
