package dev.billing.api.auth.keys;

import dev.billing.api.auth.Role;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

/**
 * API keys in the billing table, all in one partition: {@code PK = APIKEYS}, {@code SK =
 * KEY#<keyId>}. One partition keeps listing a Query (never a Scan of the whole table) and lets IAM
 * confine the key administration role to exactly these items ({@code dynamodb:LeadingKeys =
 * APIKEYS}). The load is small: keys are few, and each API instance reads one only on a cache miss.
 * The items carry none of the GSI attributes, so the due-date indexes never see them.
 */
public final class ApiKeyStore {
  static final String PARTITION = "APIKEYS";
  private static final String SK_PREFIX = "KEY#";

  private final DynamoDbClient client;
  private final String table;

  public ApiKeyStore(DynamoDbClient client, String billingTable) {
    this.client = client;
    this.table = billingTable;
  }

  /**
   * @return false when a key with this id exists already (the caller issues another id)
   */
  public boolean create(ApiKey key) {
    Map<String, AttributeValue> item = new HashMap<>();
    item.put("PK", s(PARTITION));
    item.put("SK", s(SK_PREFIX + key.keyId()));
    item.put("Type", s("API_KEY"));
    item.put("KeyId", s(key.keyId()));
    item.put("KeyHash", s(key.hash()));
    item.put("Role", s(key.role().wireName()));
    putIfPresent(item, "AccountId", key.accountId());
    putIfPresent(item, "Label", key.label());
    item.put("CreatedAt", s(key.createdAt().toString()));
    item.put("CreatedBy", s(key.createdBy()));
    try {
      client.putItem(
          r -> r.tableName(table).item(item).conditionExpression("attribute_not_exists(PK)"));
      return true;
    } catch (ConditionalCheckFailedException e) {
      return false;
    }
  }

  /** A strongly consistent read: a key works (and a revocation bites) as soon as it is written. */
  public Optional<ApiKey> find(String keyId) {
    return apiKey(
        client.getItem(r -> r.tableName(table).consistentRead(true).key(keyOf(keyId))).item());
  }

  /**
   * Revokes once: a second revocation keeps the first one's time and principal.
   *
   * @return the key as revoked, or empty when there is no such key
   */
  public Optional<ApiKey> revoke(String keyId, Instant at, String by) {
    try {
      return apiKey(
          client
              .updateItem(
                  r ->
                      r.tableName(table)
                          .key(keyOf(keyId))
                          .conditionExpression(
                              "attribute_exists(PK) AND attribute_not_exists(RevokedAt)")
                          .updateExpression("SET RevokedAt = :at, RevokedBy = :by")
                          .expressionAttributeValues(Map.of(":at", s(at.toString()), ":by", s(by)))
                          .returnValues(ReturnValue.ALL_NEW)
                          .returnValuesOnConditionCheckFailure(
                              ReturnValuesOnConditionCheckFailure.ALL_OLD))
              .attributes());
    } catch (ConditionalCheckFailedException e) {
      // Revoked before: the item as that revocation left it. Unknown: no item.
      return apiKey(e.item());
    }
  }

  /** Every key, oldest id first; revoked ones included (they are the audit trail). */
  public List<ApiKey> list() {
    List<ApiKey> keys = new ArrayList<>();
    Map<String, AttributeValue> start = null;
    do {
      Map<String, AttributeValue> from = start;
      QueryResponse page =
          client.query(
              r ->
                  r.tableName(table)
                      .consistentRead(true)
                      .keyConditionExpression("PK = :pk")
                      .expressionAttributeValues(Map.of(":pk", s(PARTITION)))
                      .exclusiveStartKey(from));
      page.items().forEach(item -> keys.add(fromItem(item)));
      start =
          page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()
              ? page.lastEvaluatedKey()
              : null;
    } while (start != null);
    return keys;
  }

  private static Map<String, AttributeValue> keyOf(String keyId) {
    return Map.of("PK", s(PARTITION), "SK", s(SK_PREFIX + keyId));
  }

  private static Optional<ApiKey> apiKey(Map<String, AttributeValue> item) {
    return item == null || item.isEmpty() ? Optional.empty() : Optional.of(fromItem(item));
  }

  private static ApiKey fromItem(Map<String, AttributeValue> item) {
    Role role = Role.fromWireName(str(item, "Role"));
    if (role == null) {
      throw new IllegalStateException("API key " + str(item, "KeyId") + " has an unknown role");
    }
    return new ApiKey(
        str(item, "KeyId"),
        str(item, "KeyHash"),
        role,
        optStr(item, "AccountId"),
        optStr(item, "Label"),
        Instant.parse(str(item, "CreatedAt")),
        str(item, "CreatedBy"),
        optStr(item, "RevokedAt") == null ? null : Instant.parse(optStr(item, "RevokedAt")),
        optStr(item, "RevokedBy"));
  }

  private static AttributeValue s(String value) {
    return AttributeValue.fromS(value);
  }

  private static void putIfPresent(Map<String, AttributeValue> item, String name, String value) {
    if (value != null) {
      item.put(name, s(value));
    }
  }

  private static String str(Map<String, AttributeValue> item, String name) {
    String value = optStr(item, name);
    if (value == null) {
      throw new IllegalStateException("API key item lacks " + name);
    }
    return value;
  }

  private static String optStr(Map<String, AttributeValue> item, String name) {
    AttributeValue value = item.get(name);
    return value == null ? null : value.s();
  }
}
