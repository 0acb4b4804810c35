package dev.billing.workflows.activities;

/**
 * @param messageId the id the notifier accepted
 * @param duplicate true when the notifier had already accepted this message
 * @param version the subscription version now stored
 */
public record SendReminderResult(String messageId, boolean duplicate, long version) {}
