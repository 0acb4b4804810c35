package dev.billing.store;

import static dev.billing.store.Attrs.num;
import static dev.billing.store.Attrs.optStr;
import static dev.billing.store.Attrs.putIfPresent;
import static dev.billing.store.Attrs.s;
import static dev.billing.store.Attrs.str;

import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.store.HistoryEntry.FieldChange;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** One history item per subscription change: the snapshot after it, what changed, and why. */
final class HistoryItems {

  /**
   * Left out of Changes: they change on every write, so they would bury the fields that tell what
   * happened, and the entry records them anyway (Version and ChangeId attributes, the time in the
   * SK). The previous state also reaches us as a domain value that does not carry the last two.
   */
  private static final Set<String> NOISE =
      Set.of(
          SubscriptionItems.VERSION,
          SubscriptionItems.UPDATED_DATE,
          SubscriptionItems.LAST_CHANGE_ID);

  private HistoryItems() {}

  static Map<String, AttributeValue> item(RecordInput change) {
    Map<String, AttributeValue> snapshot =
        SubscriptionItems.attributes(change.next(), change.changeId(), change.at());
    Map<String, AttributeValue> before =
        change.previous() == null
            ? Map.of()
            : SubscriptionItems.attributes(change.previous(), null, null);
    List<FieldChange> changes =
        ItemDiff.between(withoutNever(before), withoutNever(snapshot), NOISE);

    Map<String, AttributeValue> item = new HashMap<>();
    item.put(Keys.PK, s(Keys.history(change.next().subscriptionId())));
    item.put(Keys.SK, s(Keys.historyEntry(change.at(), change.next().version())));
    item.put("AccountId", s(change.next().accountId()));
    item.put("SubscriptionId", s(change.next().subscriptionId()));
    item.put("Version", Attrs.n(change.next().version()));
    item.put("ChangeId", s(change.changeId()));
    item.put("Event", s(change.event().name()));
    item.put("Process", s(change.process().name()));
    item.put("Actor", s(change.actor()));
    putIfPresent(item, "Detail", change.detail());
    item.put("Cycle", Attrs.n(cycleOf(change)));
    item.put(
        "Changes", AttributeValue.fromL(changes.stream().map(HistoryItems::changeItem).toList()));
    item.put("Snapshot", AttributeValue.fromM(snapshot));
    return item;
  }

  /**
   * The cycle the change is about: a charge's period or receipt names the cycle it paid, while the
   * subscription has by then moved on to the next one. Other changes concern the current cycle.
   */
  static long cycleOf(RecordInput change) {
    if (change.period() != null) {
      return change.period().cycle();
    }
    if (change.receipt() != null) {
      return change.receipt().cycle();
    }
    return change.next().cycle();
  }

  static HistoryEntry fromItem(Map<String, AttributeValue> item) {
    List<FieldChange> changes =
        item.get("Changes").l().stream()
            .map(AttributeValue::m)
            .map(c -> new FieldChange(str(c, "Field"), optStr(c, "From"), optStr(c, "To")))
            .toList();
    return new HistoryEntry(
        str(item, "SubscriptionId"),
        str(item, "AccountId"),
        Keys.historyTime(str(item, Keys.SK)),
        num(item, "Version"),
        HistoryEvent.valueOf(str(item, "Event")),
        Process.valueOf(str(item, "Process")),
        str(item, "Actor"),
        optStr(item, "Detail"),
        num(item, "Cycle"),
        changes,
        SubscriptionItems.fromItem(Attrs.map(item, "Snapshot")));
  }

  private static AttributeValue changeItem(FieldChange change) {
    Map<String, AttributeValue> m = new HashMap<>();
    m.put("Field", s(change.field()));
    putIfPresent(m, "From", change.from());
    putIfPresent(m, "To", change.to());
    return AttributeValue.fromM(m);
  }

  /** "NEVER" is an index artefact; in a change it reads as "no value", like a null field. */
  private static Map<String, AttributeValue> withoutNever(Map<String, AttributeValue> item) {
    Map<String, AttributeValue> copy = new HashMap<>(item);
    copy.values().removeIf(v -> Timestamps.NEVER.equals(v.s()));
    return copy;
  }
}
