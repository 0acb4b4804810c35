package dev.billing.workflows.activities;

/**
 * @param lastOwed no other endpoint still waits for the event: the delivery's end takes it off the
 *     undelivered index in the same write
 * @param redelivery sent again on request
 */
public record DeliverEventInput(
    String eventId, String endpointId, boolean lastOwed, boolean redelivery) {}
