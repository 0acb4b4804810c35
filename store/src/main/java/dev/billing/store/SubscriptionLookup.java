package dev.billing.store;

import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * Reads one subscription item by id. The SKU is part of the key but not known to every caller, so
 * this is a Query on the "SUB#id#" prefix rather than a GetItem; strongly consistent, because it
 * decides whether a failed write was a retry.
 */
final class SubscriptionLookup {
  private final DynamoDbClient client;
  private final String table;

  SubscriptionLookup(DynamoDbClient client, String table) {
    this.client = client;
    this.table = table;
  }

  /**
   * @return the raw item, or null when there is none
   */
  Map<String, AttributeValue> find(String accountId, String subscriptionId) {
    List<Map<String, AttributeValue>> items =
        client
            .query(
                QueryRequest.builder()
                    .tableName(table)
                    .keyConditionExpression("PK = :pk AND begins_with(SK, :prefix)")
                    .expressionAttributeValues(
                        Map.of(
                            ":pk", Attrs.s(Keys.account(accountId)),
                            ":prefix", Attrs.s(Keys.subscriptionPrefix(subscriptionId))))
                    .consistentRead(true)
                    .build())
            .items();
    if (items.size() > 1) {
      // A SKU change deletes the old item in the same transaction as it writes the new one.
      throw new IllegalStateException(
          "subscription "
              + subscriptionId
              + " of account "
              + accountId
              + " is stored under "
              + items.size()
              + " SKUs");
    }
    return items.isEmpty() ? null : items.get(0);
  }
}
