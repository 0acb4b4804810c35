package dev.billing.workflows.activities;

/**
 * Why the gateway declined a charge, carried as the details of the activity's ApplicationFailure.
 *
 * @param code the gateway's decline code, e.g. "card_declined", "insufficient_funds"
 * @param message the gateway's message, readable by an operator
 */
public record DeclineDetails(String code, String message) {}
