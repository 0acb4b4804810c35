package dev.billing.api.errors;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything else: logged with a reference, answered as a 500 that carries only that reference (no
 * exception class, message or stack trace reaches the client).
 */
public final class UnexpectedExceptionMapper implements ExceptionMapper<Throwable> {
  private static final Logger LOG = LoggerFactory.getLogger(UnexpectedExceptionMapper.class);

  @Override
  public Response toResponse(Throwable e) {
    String reference = UUID.randomUUID().toString();
    LOG.error("Unexpected error, reference {}", reference, e);
    return ProblemResponses.of(
        new Problem(
            Problem.TYPE_BASE + "internal-error",
            "Internal server error",
            500,
            "The request could not be completed. Reference: " + reference + ".",
            List.of()));
  }
}
