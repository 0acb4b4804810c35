package dev.billing.workflows;

import dev.billing.domain.Money;
import java.time.LocalDate;

/**
 * A period whose dunning ended without payment and that is still owed (ERROR): manual repayment or
 * a waiver settles it, and it turns STALE when it is older than the policy's stale age.
 *
 * @param attempts collection attempts made so far (the next uses attempts + 1)
 * @param staleAfterDays from the dunning policy snapshotted for it; 0 means never
 * @param failureMessage why the last attempt failed, for the customer and the operator
 */
public record UnpaidPeriod(
    long cycle,
    int attempts,
    Money amount,
    LocalDate dueDate,
    int staleAfterDays,
    String failureMessage) {}
