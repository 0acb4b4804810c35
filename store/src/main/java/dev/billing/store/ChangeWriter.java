package dev.billing.store;

import static dev.billing.store.Attrs.n;

import dev.billing.domain.PeriodStatus;
import dev.billing.domain.RecordInput;
import dev.billing.domain.RecordResult;
import dev.billing.domain.ScheduledPeriods;
import dev.billing.domain.Subscription;
import java.time.Period;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * Writes one subscription change, with its history entry, period, receipt and merchant events, in
 * one transaction.
 */
final class ChangeWriter {
  private static final Logger log = LoggerFactory.getLogger(ChangeWriter.class);
  private static final Map<String, String> PK_NAME = Map.of("#pk", Keys.PK);
  private static final Map<String, String> VERSION_NAME =
      Map.of("#version", SubscriptionItems.VERSION);
  private static final Map<String, String> BOTH_NAMES =
      Map.of("#pk", Keys.PK, "#version", SubscriptionItems.VERSION);
  private static final String ABSENT = "attribute_not_exists(#pk)";
  private static final String OLDER = "#version < :v";
  private static final String ABSENT_OR_OLDER = ABSENT + " OR " + OLDER;
  private static final Map<String, String> STATUS_NAMES =
      Map.of("#pk", Keys.PK, "#status", "Status");
  private static final Map<String, String> SCHEDULE_NAMES =
      Map.of("#pk", Keys.PK, "#status", "Status", "#txn", "TransactionId", "#refunds", "Refunds");
  private static final String ABSENT_OR_SCHEDULED = ABSENT + " OR #status = :scheduled";

  /**
   * Also over a period cancelled before it was charged (no transaction, no refund): the next charge
   * of a subscription reactivated before that period's due date.
   */
  private static final String SCHEDULABLE =
      ABSENT_OR_SCHEDULED
          + " OR (#status = :cancelled AND attribute_not_exists(#txn)"
          + " AND attribute_not_exists(#refunds))";

  private static final Map<String, AttributeValue> SCHEDULED =
      Map.of(":scheduled", AttributeValue.fromS(PeriodStatus.SCHEDULED.name()));
  private static final Map<String, AttributeValue> SCHEDULED_OR_CANCELLED =
      Map.of(
          ":scheduled",
          AttributeValue.fromS(PeriodStatus.SCHEDULED.name()),
          ":cancelled",
          AttributeValue.fromS(PeriodStatus.CANCELLED.name()));

  private final DynamoDbClient client;
  private final TableNames tables;
  private final Period receiptRetention;
  private final SubscriptionLookup lookup;
  private final Supplier<DateKeySharding> sharding;

  ChangeWriter(
      DynamoDbClient client,
      TableNames tables,
      Period receiptRetention,
      SubscriptionLookup lookup,
      Supplier<DateKeySharding> sharding) {
    this.client = client;
    this.tables = tables;
    this.receiptRetention = receiptRetention;
    this.lookup = lookup;
    this.sharding = sharding;
  }

  RecordResult create(RecordInput change) {
    ChangeChecks.requireCreate(change);
    Subscription next = change.next();
    List<TransactionOp> ops = new ArrayList<>();
    ops.add(
        TransactionOp.subscription(
            "subscription " + Keys.subscription(next.subscriptionId(), next.sku()),
            put(tables.billing(), subscriptionItem(change), ABSENT, PK_NAME, Map.of())));
    addHistoryAndParts(change, ops);
    return new ChangeTransaction(client, lookup, change, ops).run();
  }

  RecordResult update(RecordInput change) {
    ChangeChecks.requireUpdate(change);
    Subscription previous = change.previous();
    Subscription next = change.next();
    Map<String, AttributeValue> version = Map.of(":v", n(next.version()));
    boolean skuChanged = !previous.sku().equals(next.sku());
    List<TransactionOp> ops = new ArrayList<>();
    String label = "subscription " + Keys.subscription(next.subscriptionId(), next.sku());
    // A new SKU is a new key: that item does not exist yet, so "absent" must pass too.
    ops.add(
        TransactionOp.subscription(
            label,
            skuChanged
                ? put(
                    tables.billing(),
                    subscriptionItem(change),
                    ABSENT_OR_OLDER,
                    BOTH_NAMES,
                    version)
                : put(tables.billing(), subscriptionItem(change), OLDER, VERSION_NAME, version)));
    if (skuChanged) {
      ops.add(
          TransactionOp.subscription(
              "subscription " + Keys.subscription(previous.subscriptionId(), previous.sku()),
              TransactWriteItem.builder()
                  .delete(
                      Delete.builder()
                          .tableName(tables.billing())
                          .key(
                              SubscriptionItems.key(
                                  previous.accountId(), previous.subscriptionId(), previous.sku()))
                          .conditionExpression(OLDER)
                          .expressionAttributeNames(VERSION_NAME)
                          .expressionAttributeValues(version)
                          .build())
                  .build()));
    }
    addHistoryAndParts(change, ops);
    return new ChangeTransaction(client, lookup, change, ops).run();
  }

  private void addHistoryAndParts(RecordInput change, List<TransactionOp> ops) {
    Map<String, AttributeValue> history = HistoryItems.item(change);
    String historyKey = history.get(Keys.PK).s() + "/" + history.get(Keys.SK).s();
    ops.add(
        TransactionOp.other(
            "history entry " + historyKey,
            put(tables.history(), history, ABSENT, PK_NAME, Map.of())));
    if (change.period() != null) {
      // Periods are per-cycle state (attempts, status): the latest write of a cycle wins.
      Map<String, AttributeValue> period = PeriodItems.item(change.period());
      ops.add(
          TransactionOp.other(
              "period " + period.get(Keys.SK).s(),
              TransactWriteItem.builder()
                  .put(Put.builder().tableName(tables.billing()).item(period).build())
                  .build()));
    }
    if (change.receipt() != null) {
      Map<String, AttributeValue> receipt = ReceiptItems.item(change.receipt(), receiptRetention);
      ops.add(
          TransactionOp.other(
              "receipt " + receipt.get(Keys.SK).s(),
              put(tables.billing(), receipt, ABSENT, PK_NAME, Map.of())));
    }
    // The outbox: an event exists exactly when its change does. Put on absence like the history
    // entry, so a retry of a committed change finds them written and writes none twice.
    for (Map<String, AttributeValue> event :
        OutboxItems.items(change, sharding.get(), receiptRetention)) {
      ops.add(
          TransactionOp.other(
              "event " + event.get("EventId").s(),
              put(tables.billing(), event, ABSENT, PK_NAME, Map.of())));
    }
    addScheduledPeriod(change, ops);
  }

  /**
   * The next period as SCHEDULED, and the removal of one no longer coming. Only ever over a record
   * that is absent or itself SCHEDULED: a period that was charged is never touched. Should one be
   * (a broken invariant), the change is written without these ops rather than stopped.
   */
  private void addScheduledPeriod(RecordInput change, List<TransactionOp> ops) {
    ScheduledPeriods.Plan plan;
    try {
      plan = ScheduledPeriods.of(change);
    } catch (RuntimeException e) {
      log.warn(
          "next period of {} not scheduled by change {}",
          change.next().subscriptionId(),
          change.changeId(),
          e);
      return;
    }
    if (plan.schedule() != null) {
      Map<String, AttributeValue> period = PeriodItems.item(plan.schedule());
      ops.add(
          TransactionOp.droppable(
              "scheduled period " + period.get(Keys.SK).s(),
              put(tables.billing(), period, SCHEDULABLE, SCHEDULE_NAMES, SCHEDULED_OR_CANCELLED)));
    }
    if (plan.unschedule() != null) {
      Subscription next = change.next();
      ops.add(
          TransactionOp.droppable(
              "scheduled period " + Keys.period(next.subscriptionId(), plan.unschedule()),
              TransactWriteItem.builder()
                  .delete(
                      Delete.builder()
                          .tableName(tables.billing())
                          .key(
                              Map.of(
                                  Keys.PK,
                                  AttributeValue.fromS(Keys.account(next.accountId())),
                                  Keys.SK,
                                  AttributeValue.fromS(
                                      Keys.period(next.subscriptionId(), plan.unschedule()))))
                          .conditionExpression(ABSENT_OR_SCHEDULED)
                          .expressionAttributeNames(STATUS_NAMES)
                          .expressionAttributeValues(SCHEDULED)
                          .build())
                  .build()));
    }
  }

  private Map<String, AttributeValue> subscriptionItem(RecordInput change) {
    return SubscriptionItems.item(change.next(), change.changeId(), change.at(), sharding.get());
  }

  private static TransactWriteItem put(
      String table,
      Map<String, AttributeValue> item,
      String condition,
      Map<String, String> names,
      Map<String, AttributeValue> values) {
    return TransactWriteItem.builder()
        .put(
            Put.builder()
                .tableName(table)
                .item(item)
                .conditionExpression(condition)
                .expressionAttributeNames(names)
                .expressionAttributeValues(values.isEmpty() ? null : values)
                .build())
        .build();
  }
}
