package dev.billing.workflows.activities;

public record SettleEventInput(String eventId) {}
