package dev.billing.workflows.activities;

import dev.billing.domain.Period;

/**
 * @param period the stored record; null when the subscription has no such period
 */
public record LoadPeriodResult(Period period) {}
