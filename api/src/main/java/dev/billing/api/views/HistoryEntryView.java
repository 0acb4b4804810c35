package dev.billing.api.views;

import dev.billing.activities.views.SubscriptionView;
import dev.billing.activities.views.Timestamps;
import dev.billing.store.HistoryEntry;
import java.util.List;
import java.util.Locale;

/** One history entry: what changed, why, and the subscription as it was afterwards. */
public record HistoryEntryView(
    String at,
    long version,
    String event,
    String process,
    String actor,
    String detail,
    long cycle,
    List<ChangeView> changes,
    SubscriptionView snapshot) {

  public record ChangeView(String field, String from, String to) {}

  /**
   * Stored field changes include the payment details; the gateway token never leaves the server.
   */
  static final String REDACTED = "[redacted]";

  public static HistoryEntryView of(HistoryEntry e) {
    List<ChangeView> changes =
        e.changes() == null
            ? List.of()
            : e.changes().stream()
                .map(
                    c ->
                        isSecret(c.field())
                            ? new ChangeView(
                                c.field(),
                                c.from() == null ? null : REDACTED,
                                c.to() == null ? null : REDACTED)
                            : new ChangeView(c.field(), c.from(), c.to()))
                .toList();
    return new HistoryEntryView(
        Timestamps.instant(e.at()),
        e.version(),
        e.event() == null ? null : e.event().name(),
        e.process() == null ? null : e.process().name(),
        e.actor(),
        e.detail(),
        e.cycle(),
        changes,
        e.snapshot() == null ? null : SubscriptionView.of(e.snapshot()));
  }

  private static boolean isSecret(String field) {
    if (field == null) {
      return false;
    }
    return field.toLowerCase(Locale.ROOT).contains("token");
  }
}
