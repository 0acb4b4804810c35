package dev.billing.workflows.activities;

import java.time.Instant;

/**
 * @param asOf workflow time of the sweep
 * @param lookbackDays days before {@code asOf}'s UTC day read too: the retry window and a margin
 * @param limit events read at most
 */
public record EventSweepInput(Instant asOf, int lookbackDays, int limit) {}
