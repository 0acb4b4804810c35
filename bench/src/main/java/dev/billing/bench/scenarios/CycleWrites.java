package dev.billing.bench.scenarios;

import dev.billing.bench.dynamo.IndexProjection;
import dev.billing.bench.dynamo.ItemSize;
import dev.billing.bench.dynamo.WriteUnits;
import dev.billing.bench.report.ReportWriter;
import dev.billing.store.BillingTables;
import dev.billing.store.TableNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;

/**
 * The AWS write units of one steady-state monthly cycle (the reminder's transaction and the
 * charge's), priced by {@link WriteUnits} from the items one subscription's cycles left in the
 * store, read back after the run. Each transaction holds the subscription, its history entry and,
 * for the charge, the period and the receipt; and, written by the store beside every change, the
 * change's merchant events (outbox items {@code SUB#…/EVT#…}, in three indexes) and the next period
 * as SCHEDULED: the reminder writes its cycle's SCHEDULED record again, the charge puts the next
 * cycle's.
 */
final class CycleWrites {
  /** The store's due-date indexes: reminders (GSI-1) and payments (GSI-2). */
  private static final String REMINDER_INDEX = "GSI-1";

  private static final String PAYMENT_INDEX = "GSI-2";

  /**
   * One item of a transaction, priced.
   *
   * @param change "reminder" or "charge"
   * @param bytes the item's size as billed
   * @param indexBytes what the indexes hold of it, for the report; empty when none
   */
  record Line(String change, String what, long bytes, String indexBytes, long units) {}

  /**
   * @param lines every item of both transactions
   */
  record Model(List<Line> lines) {
    long units(String change) {
      return lines.stream().filter(l -> l.change().equals(change)).mapToLong(Line::units).sum();
    }

    long total() {
      return lines.stream().mapToLong(Line::units).sum();
    }

    List<List<String>> rows() {
      List<List<String>> rows = new ArrayList<>();
      for (Line line : lines) {
        rows.add(
            List.of(
                line.change() + ": " + line.what(),
                line.bytes() + (line.indexBytes().isEmpty() ? "" : "; " + line.indexBytes()),
                ReportWriter.number(line.units())));
      }
      rows.add(List.of("reminder transaction", "", ReportWriter.number(units("reminder"))));
      rows.add(List.of("charge transaction", "", ReportWriter.number(units("charge"))));
      return rows;
    }
  }

  private CycleWrites() {}

  static Model read(
      DynamoDbClient dynamo, TableNames tables, String accountId, String subscriptionId) {
    String billing = tables.billing();
    String account = "ACC#" + accountId;
    Map<String, AttributeValue> sub =
        first(dynamo, billing, account, "SUB#" + subscriptionId + "#");
    Map<String, AttributeValue> receipt = first(dynamo, billing, account, "REC#");
    List<Map<String, AttributeValue>> periods =
        query(dynamo, billing, account, "PER#" + subscriptionId + "#");
    List<Map<String, AttributeValue>> events =
        query(dynamo, billing, "SUB#" + subscriptionId, "EVT#");
    Map<String, AttributeValue> reminderEntry = null;
    Map<String, AttributeValue> paidEntry = null;
    // In time order: the last of each is the latest cycle's, past the first cycle's extras.
    for (Map<String, AttributeValue> entry :
        query(dynamo, tables.history(), "SUB#" + subscriptionId, null)) {
      String event = entry.get("Event").s();
      if (event.equals("REMINDER_SENT")) {
        reminderEntry = entry;
      } else if (event.equals("PAYMENT_SUCCEEDED")) {
        paidEntry = entry;
      }
    }
    require(reminderEntry, "history entry REMINDER_SENT of " + subscriptionId);
    require(paidEntry, "history entry PAYMENT_SUCCEEDED of " + subscriptionId);
    String paidCycle = paidEntry.get("Cycle").n();
    Map<String, AttributeValue> completed =
        require(
            periods.stream()
                .filter(p -> p.get("Cycle").n().equals(paidCycle))
                .findFirst()
                .orElse(null),
            "period " + paidCycle + " of " + subscriptionId);
    // The next cycle's, put by the latest charge; the reminder's rewrite of its own cycle's and
    // the record the charge's period replaces are the same shape.
    Map<String, AttributeValue> scheduled =
        periods.stream()
            .filter(p -> p.get("Status").s().equals("SCHEDULED"))
            .findFirst()
            .orElse(null);

    CreateTableRequest schema = BillingTables.schema(BillingTables.BILLING_SCHEMA, billing);
    long subBytes = ItemSize.bytes(sub);
    long gsi1 = ItemSize.bytes(IndexProjection.of(schema, REMINDER_INDEX).project(sub));
    long gsi2 = ItemSize.bytes(IndexProjection.of(schema, PAYMENT_INDEX).project(sub));
    List<Line> lines = new ArrayList<>();

    lines.add(
        new Line(
            "reminder",
            "subscription (x2) + GSI-1 delete",
            subBytes,
            "GSI-1 " + gsi1,
            2 * ItemSize.writeUnits(subBytes) + ItemSize.writeUnits(gsi1)));
    lines.add(plain("reminder", "history entry (x2)", reminderEntry));
    if (scheduled != null) {
      lines.add(
          new Line(
              "reminder",
              "SCHEDULED period of its cycle, written again (x2)",
              ItemSize.bytes(scheduled),
              "",
              WriteUnits.transactional(scheduled, scheduled)));
    }
    addEvents(lines, "reminder", schema, events, reminderEntry.get("Version").n());

    lines.add(
        new Line(
            "charge",
            "subscription (x2) + GSI-2 key move (2) + GSI-1 put",
            subBytes,
            "GSI-2 " + gsi2 + ", GSI-1 " + gsi1,
            2 * ItemSize.writeUnits(subBytes)
                + 2 * ItemSize.writeUnits(gsi2)
                + ItemSize.writeUnits(gsi1)));
    lines.add(plain("charge", "history entry (x2)", paidEntry));
    lines.add(
        new Line(
            "charge",
            "period COMPLETED" + (scheduled == null ? "" : ", over its SCHEDULED record") + " (x2)",
            ItemSize.bytes(completed),
            "",
            WriteUnits.transactional(scheduled, completed)));
    lines.add(plain("charge", "receipt (x2)", receipt));
    addEvents(lines, "charge", schema, events, paidEntry.get("Version").n());
    if (scheduled != null) {
      lines.add(
          new Line(
              "charge",
              "SCHEDULED period of the next cycle (x2)",
              ItemSize.bytes(scheduled),
              "",
              WriteUnits.transactional(null, scheduled)));
    }
    return new Model(List.copyOf(lines));
  }

  /** The outbox items of the change that wrote this version, with their index writes. */
  private static void addEvents(
      List<Line> lines,
      String change,
      CreateTableRequest schema,
      List<Map<String, AttributeValue>> events,
      String version) {
    for (Map<String, AttributeValue> event : events) {
      if (!event.get("Version").n().equals(version)) {
        continue;
      }
      lines.add(
          new Line(
              change,
              "event " + event.get("EventType").s() + " (x2) + its indexes",
              ItemSize.bytes(event),
              indexBytes(schema, event),
              WriteUnits.transactional(null, event) + WriteUnits.indexes(schema, null, event)));
    }
  }

  private static String indexBytes(CreateTableRequest schema, Map<String, AttributeValue> item) {
    List<String> sizes = new ArrayList<>();
    for (var index : schema.globalSecondaryIndexes()) {
      if (WriteUnits.inIndex(index, item)) {
        IndexProjection projection = IndexProjection.of(schema, index.indexName());
        sizes.add(index.indexName() + " " + ItemSize.bytes(projection.project(item)));
      }
    }
    return String.join(", ", sizes);
  }

  private static Line plain(String change, String what, Map<String, AttributeValue> item) {
    return new Line(change, what, ItemSize.bytes(item), "", WriteUnits.transactional(null, item));
  }

  private static <T> T require(T found, String what) {
    if (found == null) {
      throw new IllegalStateException("no " + what + " in the store");
    }
    return found;
  }

  private static Map<String, AttributeValue> first(
      DynamoDbClient dynamo, String table, String pk, String prefix) {
    List<Map<String, AttributeValue>> items = query(dynamo, table, pk, prefix);
    if (items.isEmpty()) {
      throw new IllegalStateException("no item " + pk + " " + prefix);
    }
    return items.get(0);
  }

  /** Every item of a partition, or of the part of it whose sort key starts with the prefix. */
  private static List<Map<String, AttributeValue>> query(
      DynamoDbClient dynamo, String table, String pk, String prefix) {
    Map<String, AttributeValue> values =
        prefix == null
            ? Map.of(":pk", AttributeValue.fromS(pk))
            : Map.of(":pk", AttributeValue.fromS(pk), ":p", AttributeValue.fromS(prefix));
    return dynamo
        .queryPaginator(
            r ->
                r.tableName(table)
                    .consistentRead(true)
                    .keyConditionExpression(
                        "PK = :pk" + (prefix == null ? "" : " AND begins_with(SK, :p)"))
                    .expressionAttributeValues(values))
        .items()
        .stream()
        .toList();
  }
}
