package dev.billing.store.endpoints;

import dev.billing.store.Page;
import dev.billing.store.PageRequest;
import dev.billing.store.PageTokens;
import dev.billing.store.QueryPager;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

/**
 * Webhook endpoints in the billing table, all in one partition: {@code PK = WEBHOOK_ENDPOINTS},
 * {@code SK = ENDPOINT#<id>}. Like the API keys: one partition keeps listing a Query, lets IAM
 * confine access to these items, and the load is small (endpoints are few). No GSI attribute, so
 * the due-date indexes never see them. The signing secret is stored sealed ({@link
 * EndpointSecrets}), never in clear. Thread-safe.
 */
public final class WebhookEndpointStore {
  static final String PARTITION = "WEBHOOK_ENDPOINTS";
  static final String SK_PREFIX = "ENDPOINT#";
  static final String SECRET_ATTRIBUTE = "SealedSecret";
  static final String STATUS = "EndpointStatus";
  static final String DISABLED_AT = "DisabledAt";
  static final String DISABLED_REASON = "DisabledReason";
  static final String FAILING_SINCE = "FailingSince";
  static final String LAST_FAILED_AT = "LastFailedAt";

  private final DynamoDbClient client;
  private final String table;
  private final QueryPager pager;
  private final EndpointSecrets secrets;

  /**
   * @param configuredKey the API's configured secret; the secrets' key is derived from it
   */
  public WebhookEndpointStore(DynamoDbClient client, String billingTable, byte[] configuredKey) {
    this.client = Objects.requireNonNull(client, "client");
    this.table = Objects.requireNonNull(billingTable, "billingTable");
    this.pager = new QueryPager(client, new PageTokens(configuredKey.clone()));
    this.secrets = new EndpointSecrets(configuredKey);
  }

  /**
   * @return false when an endpoint with this id exists already (the caller issues another id)
   */
  public boolean create(WebhookEndpoint endpoint, String secret) {
    Map<String, AttributeValue> item = new HashMap<>(keyOf(endpoint.id()));
    item.put("Type", s("WEBHOOK_ENDPOINT"));
    item.put("EndpointId", s(endpoint.id()));
    item.put("Url", s(endpoint.url()));
    item.put(
        "Events",
        AttributeValue.fromL(endpoint.events().stream().map(WebhookEndpointStore::s).toList()));
    if (endpoint.description() != null) {
      item.put("Description", s(endpoint.description()));
    }
    item.put("CreatedAt", s(endpoint.createdAt().toString()));
    item.put(SECRET_ATTRIBUTE, s(secrets.seal(endpoint.id(), secret)));
    try {
      client.putItem(
          r -> r.tableName(table).item(item).conditionExpression("attribute_not_exists(PK)"));
      return true;
    } catch (ConditionalCheckFailedException e) {
      return false;
    }
  }

  public Optional<WebhookEndpoint> find(String id) {
    return Optional.ofNullable(item(id)).map(WebhookEndpointStore::endpoint);
  }

  /** In id order, which is not creation order: ids are random. */
  public Page<WebhookEndpoint> list(PageRequest page) {
    return pager.page(
        QueryRequest.builder()
            .tableName(table)
            .consistentRead(true)
            .keyConditionExpression("PK = :pk AND begins_with(SK, :sk)")
            .expressionAttributeValues(Map.of(":pk", s(PARTITION), ":sk", s(SK_PREFIX)))
            .build(),
        table + "|" + PARTITION,
        page,
        WebhookEndpointStore::endpoint);
  }

  /**
   * Every endpoint, read eventually consistent (a moment behind a registration on AWS): what
   * delivery asks after each change, so cheap rather than exact. Endpoints are few.
   */
  public java.util.List<WebhookEndpoint> all() {
    java.util.List<WebhookEndpoint> all = new java.util.ArrayList<>();
    Map<String, AttributeValue> start = null;
    do {
      Map<String, AttributeValue> from = start;
      var response =
          client.query(
              r ->
                  r.tableName(table)
                      .keyConditionExpression("PK = :pk AND begins_with(SK, :sk)")
                      .expressionAttributeValues(Map.of(":pk", s(PARTITION), ":sk", s(SK_PREFIX)))
                      .exclusiveStartKey(from));
      response.items().forEach(item -> all.add(endpoint(item)));
      start = response.hasLastEvaluatedKey() ? response.lastEvaluatedKey() : null;
    } while (start != null && !start.isEmpty());
    return all;
  }

  /**
   * @return false when there was no such endpoint
   */
  public boolean delete(String id) {
    try {
      client.deleteItem(
          r -> r.tableName(table).key(keyOf(id)).conditionExpression("attribute_exists(PK)"));
      return true;
    } catch (ConditionalCheckFailedException e) {
      return false;
    }
  }

  /**
   * Starts the endpoint's failing streak at {@code at}, unless one runs already (the first failure
   * after a success keeps its time) or the endpoint is gone.
   *
   * @return whether this call started it
   */
  public boolean startFailing(String id, Instant at) {
    return streakWrite(
        id,
        "SET #since = :at, #last = :at",
        "attribute_exists(PK) AND attribute_not_exists(#since)",
        Map.of(":at", s(at.toString())));
  }

  /**
   * Starts a new streak at {@code at} in place of the one read, which began at {@code stale} and
   * saw no failure for longer than any retry waits: the endpoint was not failing in between, it got
   * nothing. Nothing when another delivery restarted it, a success ended it or an enabling came.
   *
   * @return whether this call restarted it
   */
  public boolean restartFailing(String id, Instant stale, Instant at) {
    return streakWrite(
        id,
        "SET #since = :at, #last = :at",
        "attribute_exists(PK) AND #since = :stale",
        Map.of(":at", s(at.toString()), ":stale", s(stale.toString())));
  }

  /**
   * Notes a failure at {@code at} of the streak that began at {@code since}, so a gap in it can be
   * told from a streak that keeps failing. Nothing when that streak no longer runs. Two racing
   * deliveries may leave the earlier time of the two: by less than a POST, far below the gap.
   *
   * @return whether it was written
   */
  public boolean failedAgain(String id, Instant since, Instant at) {
    return streakWrite(
        id,
        "SET #last = :at",
        "attribute_exists(PK) AND #since = :since",
        Map.of(":at", s(at.toString()), ":since", s(since.toString())));
  }

  private boolean streakWrite(
      String id, String update, String condition, Map<String, AttributeValue> values) {
    try {
      client.updateItem(
          r ->
              r.tableName(table)
                  .key(keyOf(id))
                  .updateExpression(update)
                  .conditionExpression(condition)
                  .expressionAttributeNames(
                      Map.of("#since", FAILING_SINCE, "#last", LAST_FAILED_AT))
                  .expressionAttributeValues(values));
      return true;
    } catch (ConditionalCheckFailedException e) {
      return false;
    }
  }

  /**
   * Ends the streak that began at {@code since}: a delivery that read it succeeded. Nothing when
   * that streak no longer runs (a newer one, after an enabling, is not a success's to end), or when
   * the endpoint is disabled: a 2xx does not enable it, an operator does.
   *
   * @return whether this call ended it
   */
  public boolean recovered(String id, Instant since) {
    try {
      client.updateItem(
          r ->
              r.tableName(table)
                  .key(keyOf(id))
                  .updateExpression("REMOVE #since, #last")
                  .conditionExpression(
                      "attribute_exists(PK) AND #since = :since"
                          + " AND (attribute_not_exists(#status) OR #status <> :disabled)")
                  .expressionAttributeNames(
                      Map.of("#since", FAILING_SINCE, "#last", LAST_FAILED_AT, "#status", STATUS))
                  .expressionAttributeValues(
                      Map.of(
                          ":since",
                          s(since.toString()),
                          ":disabled",
                          s(WebhookEndpoint.Status.DISABLED.name()))));
      return true;
    } catch (ConditionalCheckFailedException e) {
      return false;
    }
  }

  /**
   * Disables the endpoint, only while the failing streak that began at {@code failingSince} still
   * runs and it is enabled: a success, an enabling or another worker's disabling in between makes
   * this a no-op, so concurrent deliveries decide it once.
   *
   * @return whether this call disabled it
   */
  public boolean disable(String id, Instant failingSince, Instant at, String reason) {
    try {
      client.updateItem(
          r ->
              r.tableName(table)
                  .key(keyOf(id))
                  .updateExpression("SET #status = :disabled, #at = :at, #reason = :reason")
                  .conditionExpression(
                      "attribute_exists(PK) AND #since = :since"
                          + " AND (attribute_not_exists(#status) OR #status <> :disabled)")
                  .expressionAttributeNames(
                      Map.of(
                          "#status", STATUS,
                          "#at", DISABLED_AT,
                          "#reason", DISABLED_REASON,
                          "#since", FAILING_SINCE))
                  .expressionAttributeValues(
                      Map.of(
                          ":disabled", s(WebhookEndpoint.Status.DISABLED.name()),
                          ":at", s(at.toString()),
                          ":reason", s(reason),
                          ":since", s(failingSince.toString()))));
      return true;
    } catch (ConditionalCheckFailedException e) {
      return false;
    }
  }

  /**
   * Enables the endpoint, with no failing streak: it gets the full time again before it can be
   * disabled. Enabling an enabled endpoint changes nothing but that.
   *
   * @return the endpoint as enabled; empty when there is none
   */
  public Optional<WebhookEndpoint> enable(String id) {
    try {
      Map<String, AttributeValue> item =
          client
              .updateItem(
                  r ->
                      r.tableName(table)
                          .key(keyOf(id))
                          .updateExpression(
                              "SET #status = :enabled REMOVE #at, #reason, #since, #last")
                          .conditionExpression("attribute_exists(PK)")
                          .expressionAttributeNames(
                              Map.of(
                                  "#status", STATUS,
                                  "#at", DISABLED_AT,
                                  "#reason", DISABLED_REASON,
                                  "#since", FAILING_SINCE,
                                  "#last", LAST_FAILED_AT))
                          .expressionAttributeValues(
                              Map.of(":enabled", s(WebhookEndpoint.Status.ENABLED.name())))
                          .returnValues(ReturnValue.ALL_NEW))
              .attributes();
      return Optional.of(endpoint(item));
    } catch (ConditionalCheckFailedException e) {
      return Optional.empty();
    }
  }

  /**
   * The endpoint's signing secret in clear, for signing deliveries.
   *
   * @throws IllegalStateException when it does not open (see {@link EndpointSecrets#open})
   */
  public Optional<String> secret(String id) {
    return Optional.ofNullable(item(id))
        .map(item -> secrets.open(id, item.get(SECRET_ATTRIBUTE).s()));
  }

  private Map<String, AttributeValue> item(String id) {
    Map<String, AttributeValue> item =
        client.getItem(r -> r.tableName(table).consistentRead(true).key(keyOf(id))).item();
    return item == null || item.isEmpty() ? null : item;
  }

  private static Map<String, AttributeValue> keyOf(String id) {
    return Map.of("PK", s(PARTITION), "SK", s(SK_PREFIX + id));
  }

  private static WebhookEndpoint endpoint(Map<String, AttributeValue> item) {
    AttributeValue description = item.get("Description");
    AttributeValue status = item.get(STATUS);
    AttributeValue reason = item.get(DISABLED_REASON);
    return new WebhookEndpoint(
        item.get("EndpointId").s(),
        item.get("Url").s(),
        item.get("Events").l().stream().map(AttributeValue::s).toList(),
        description == null ? null : description.s(),
        Instant.parse(item.get("CreatedAt").s()),
        // Endpoints registered before disabling existed have no status: enabled.
        status == null
            ? WebhookEndpoint.Status.ENABLED
            : WebhookEndpoint.Status.valueOf(status.s()),
        instant(item.get(DISABLED_AT)),
        reason == null ? null : reason.s(),
        instant(item.get(FAILING_SINCE)),
        instant(item.get(LAST_FAILED_AT)));
  }

  private static Instant instant(AttributeValue value) {
    return value == null ? null : Instant.parse(value.s());
  }

  private static AttributeValue s(String value) {
    return AttributeValue.fromS(value);
  }
}
