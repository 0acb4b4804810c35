package dev.billing.domain;

import java.time.LocalDate;
import java.util.Objects;

/**
 * A pause in force: no reminder and no charge until it ends.
 *
 * @param since the date the pause began, in the subscription's zone
 * @param resumesOn the date billing restarts by itself; null for an open-ended pause (until a
 *     resume)
 * @param reason why, for the customer and the history (e.g. "dunning exhausted"); may be null
 */
public record Pause(LocalDate since, LocalDate resumesOn, String reason) {
  public Pause {
    Objects.requireNonNull(since, "since");
  }

  public boolean openEnded() {
    return resumesOn == null;
  }
}
