package dev.billing.workflows;

import java.time.LocalDate;

/**
 * Pause for a number of cycles, until a date, or (neither given) until a resume. At most one of
 * {@code cycles} and {@code until}.
 *
 * @param cycles how many periods to skip, starting with the next one due
 * @param until the date billing may restart: the first due date on or after it is charged
 * @param requestedBy the principal that asked, kept in the history
 * @param requestId the client's request id (see {@link UpdateRequest}); null until given one
 */
public record PauseRequest(
    Integer cycles, LocalDate until, String reason, String requestedBy, String requestId)
    implements UpdateRequest<PauseRequest> {

  public PauseRequest(Integer cycles, LocalDate until, String reason, String requestedBy) {
    this(cycles, until, reason, requestedBy, null);
  }

  @Override
  public PauseRequest withRequestId(String id) {
    return new PauseRequest(cycles, until, reason, requestedBy, id);
  }
}
