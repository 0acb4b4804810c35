package dev.billing.api.resources;

/**
 * Optional body of POST .../pause: {@code cycles} or {@code until} (an ISO date), not both; neither
 * pauses until a resume.
 */
public record PauseSubscriptionRequest(Integer cycles, String until, String reason) {}
