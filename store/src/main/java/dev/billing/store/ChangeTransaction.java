package dev.billing.store;

import dev.billing.domain.RecordInput;
import dev.billing.domain.RecordResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.IdempotentParameterMismatchException;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * Runs one change's TransactWriteItems and tells a retry of a committed change (alreadyApplied)
 * from a stale or conflicting write (StaleWriteException). Other failures, such as a transaction
 * conflict or throttling, propagate unchanged: they are transient and the caller retries.
 */
final class ChangeTransaction {
  private static final Logger log = LoggerFactory.getLogger(ChangeTransaction.class);
  private static final String NONE = "None";
  private static final String CONDITION_FAILED = "ConditionalCheckFailed";

  private final DynamoDbClient client;
  private final SubscriptionLookup lookup;
  private final RecordInput change;
  private final List<TransactionOp> ops;

  ChangeTransaction(
      DynamoDbClient client,
      SubscriptionLookup lookup,
      RecordInput change,
      List<TransactionOp> ops) {
    this.client = client;
    this.lookup = lookup;
    this.change = change;
    this.ops = List.copyOf(ops);
  }

  RecordResult run() {
    return run(ops, requestToken(change));
  }

  private RecordResult run(List<TransactionOp> items, String token) {
    TransactWriteItemsRequest request =
        TransactWriteItemsRequest.builder()
            .transactItems(items.stream().map(TransactionOp::item).toList())
            .clientRequestToken(token)
            .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
            .build();
    try {
      TransactWriteItemsResponse response = client.transactWriteItems(request);
      return new RecordResult(version(), isReplay(response));
    } catch (TransactionCanceledException e) {
      return resolveCancelled(e, items);
    } catch (IdempotentParameterMismatchException e) {
      // The same change id was sent within DynamoDB's ten-minute token window with other content.
      // What is stored decides: this change's version (a retry) or anything else (stale).
      return resolve(List.of(), true);
    }
  }

  /**
   * Stable across retries of one change, so DynamoDB itself deduplicates a retried commit; the
   * version makes it one change's own, since a change id can recur (a cycle's reminder sent again
   * after a billing-day move or a resume), and DynamoDB answers a token it saw in the last ten
   * minutes as a replay without writing.
   */
  static String requestToken(RecordInput change) {
    String name =
        change.next().subscriptionId() + "|" + change.changeId() + "|" + change.next().version();
    return UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)).toString();
  }

  /**
   * A request whose token already committed is answered without writing anything; DynamoDB then
   * reports the read units it spent checking and no write units (TransactWriteItems API reference,
   * ClientRequestToken). A response without that breakdown counts as a first write.
   */
  private static boolean isReplay(TransactWriteItemsResponse response) {
    if (!response.hasConsumedCapacity() || response.consumedCapacity().isEmpty()) {
      return false;
    }
    double reads = 0;
    double writes = 0;
    for (ConsumedCapacity capacity : response.consumedCapacity()) {
      reads += capacity.readCapacityUnits() == null ? 0 : capacity.readCapacityUnits();
      writes += capacity.writeCapacityUnits() == null ? 0 : capacity.writeCapacityUnits();
    }
    return writes == 0 && reads > 0;
  }

  private RecordResult resolveCancelled(TransactionCanceledException e, List<TransactionOp> items) {
    List<CancellationReason> reasons =
        e.hasCancellationReasons() ? e.cancellationReasons() : List.of();
    List<String> failed = new ArrayList<>();
    boolean subscriptionFailed = reasons.isEmpty();
    boolean onlyDroppable = !reasons.isEmpty();
    for (int i = 0; i < reasons.size(); i++) {
      String code = reasons.get(i).code();
      if (CONDITION_FAILED.equals(code)) {
        failed.add(items.get(i).label());
        subscriptionFailed |= items.get(i).subscription();
        onlyDroppable &= items.get(i).droppable();
      } else if (code != null && !NONE.equals(code)) {
        throw e;
      }
    }
    if (!failed.isEmpty() && onlyDroppable) {
      // Only a view beside the change refused (a SCHEDULED period over a charged one): the change
      // itself is written without it. Its own token, since these are other items than the first
      // request's; a retry of the whole change comes back here and is answered as a replay.
      log.warn(
          "change {} (version {}) of {} written without {}: its condition failed",
          change.changeId(),
          version(),
          change.next().subscriptionId(),
          String.join(", ", failed));
      List<TransactionOp> kept = items.stream().filter(op -> !op.droppable()).toList();
      return run(kept, droppedToken(change));
    }
    return resolve(failed, subscriptionFailed);
  }

  static String droppedToken(RecordInput change) {
    String name =
        change.next().subscriptionId()
            + "|"
            + change.changeId()
            + "|"
            + change.next().version()
            + "|without-scheduled";
    return UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)).toString();
  }

  private RecordResult resolve(List<String> failed, boolean subscriptionFailed) {
    Map<String, AttributeValue> stored =
        lookup.find(change.next().accountId(), change.next().subscriptionId());
    if (stored != null
        && change.changeId().equals(Attrs.optStr(stored, SubscriptionItems.LAST_CHANGE_ID))
        && Attrs.num(stored, SubscriptionItems.VERSION) == version()) {
      return new RecordResult(version(), true);
    }
    throw new StaleWriteException(
        subscriptionFailed ? staleMessage(stored) : conflictMessage(failed));
  }

  private String staleMessage(Map<String, AttributeValue> stored) {
    String what =
        "change \""
            + change.changeId()
            + "\" (version "
            + version()
            + ") of subscription "
            + change.next().subscriptionId()
            + " was not written: ";
    if (stored == null) {
      return what + "the subscription does not exist in account " + change.next().accountId();
    }
    return what
        + "the stored subscription is at version "
        + Attrs.num(stored, SubscriptionItems.VERSION)
        + " (change \""
        + Attrs.optStr(stored, SubscriptionItems.LAST_CHANGE_ID)
        + "\")";
  }

  private String conflictMessage(List<String> failed) {
    return "change \""
        + change.changeId()
        + "\" (version "
        + version()
        + ") of subscription "
        + change.next().subscriptionId()
        + " was not written: "
        + String.join(", ", failed)
        + (failed.size() == 1 ? " already exists" : " already exist");
  }

  private long version() {
    return change.next().version();
  }
}
