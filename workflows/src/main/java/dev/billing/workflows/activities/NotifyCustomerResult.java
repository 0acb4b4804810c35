package dev.billing.workflows.activities;

/** @param duplicate true when the notifier had already accepted this message id */
public record NotifyCustomerResult(String messageId, boolean duplicate) {}
