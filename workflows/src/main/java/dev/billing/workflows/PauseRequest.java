package dev.billing.workflows;

import java.time.LocalDate;

/**
 * Pause for a number of cycles, until a date, or (neither given) until a resume. At most one of
 * {@code cycles} and {@code until}.
 *
 * @param cycles how many periods to skip, starting with the next one due
 * @param until the date billing may restart: the first due date on or after it is charged
 * @param requestedBy the principal that asked, kept in the history
 */
public record PauseRequest(Integer cycles, LocalDate until, String reason, String requestedBy) {}
