package dev.billing.store;

import static dev.billing.store.Attrs.s;

import java.time.Period;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * Which customer messages the mail server has answered for good (accepted or bounced), one item per
 * message id in the billing table ({@code ACC#<account>} / {@code MSG#<subscription>#<message
 * id>}). A retried activity reads it before sending and skips a message found here; the entry is
 * written only after the server's answer, with a conditional put, so the first answer is the one
 * kept. Thread-safe.
 *
 * <p>SMTP cannot make "sent" and "logged" one atomic step: a worker that dies after the server
 * accepted a message and before this put makes the retry send it again, with the same Message-ID (a
 * duplicate mail clients can recognise). The log narrows that window to one DynamoDB write.
 */
public final class NotificationLog {

  /** As long as the receipts the messages announce are kept (StoreSettings' default). */
  public static final Period DEFAULT_RETENTION = StoreSettings.DEFAULT_RECEIPT_RETENTION;

  private final DynamoDbClient client;
  private final String table;
  private final Period retention;

  /**
   * @param billingTable the billing table's name ({@link TableNames#billing()}); the log has no
   *     table of its own
   * @param retention how long an entry is kept after its notification's time (TTL on ExpiresAt)
   */
  public NotificationLog(DynamoDbClient client, String billingTable, Period retention) {
    this.client = Objects.requireNonNull(client, "client");
    this.table = Objects.requireNonNull(billingTable, "billingTable");
    this.retention = Objects.requireNonNull(retention, "retention");
    if (retention.isZero() || retention.isNegative()) {
      throw new IllegalArgumentException("retention must be positive: " + retention);
    }
  }

  /**
   * The entry of one message, read consistently (so an answer logged by the last attempt is seen).
   */
  public Optional<LoggedNotification> find(
      String accountId, String subscriptionId, String messageId) {
    Map<String, AttributeValue> item =
        client
            .getItem(
                r ->
                    r.tableName(table)
                        .consistentRead(true)
                        .key(NotificationItems.key(accountId, subscriptionId, messageId)))
            .item();
    return item == null || item.isEmpty()
        ? Optional.empty()
        : Optional.of(NotificationItems.fromItem(item));
  }

  /**
   * Logs the server's answer unless one is already logged for this message id.
   *
   * @return true when this call logged it, false when an entry already existed (left as it was)
   */
  public boolean recordOnce(LoggedNotification entry) {
    try {
      client.putItem(
          r ->
              r.tableName(table)
                  .item(NotificationItems.item(entry, retention))
                  .conditionExpression("attribute_not_exists(" + Keys.PK + ")"));
      return true;
    } catch (ConditionalCheckFailedException alreadyLogged) {
      return false;
    }
  }

  /**
   * Every logged message of one subscription (operators: "what did we tell this customer?"), in
   * message-id order. A year of monthly billing logs a few dozen entries, so this reads them all.
   * Expired entries the TTL sweep has not removed yet are included: a message that went out is
   * still a message that went out.
   */
  public List<LoggedNotification> messagesOf(String accountId, String subscriptionId) {
    QueryRequest query =
        QueryRequest.builder()
            .tableName(table)
            .keyConditionExpression("PK = :pk AND begins_with(SK, :prefix)")
            .expressionAttributeValues(
                Map.of(
                    ":pk",
                    s(Keys.account(accountId)),
                    ":prefix",
                    s(Keys.messagePrefix(subscriptionId))))
            .consistentRead(true)
            .build();
    List<LoggedNotification> entries = new ArrayList<>();
    client
        .queryPaginator(query)
        .items()
        .forEach(item -> entries.add(NotificationItems.fromItem(item)));
    return entries;
  }
}
