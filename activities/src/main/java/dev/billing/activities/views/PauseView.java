package dev.billing.activities.views;

import dev.billing.domain.Pause;

/**
 * A pause in force.
 *
 * @param resumesOn the date billing restarts by itself; null until a resume
 */
public record PauseView(String since, String resumesOn, String reason) {

  public static PauseView of(Pause pause) {
    return pause == null
        ? null
        : new PauseView(
            Timestamps.date(pause.since()), Timestamps.date(pause.resumesOn()), pause.reason());
  }
}
