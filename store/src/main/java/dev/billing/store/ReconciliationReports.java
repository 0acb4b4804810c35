package dev.billing.store;

import static dev.billing.store.Attrs.optStr;
import static dev.billing.store.Attrs.s;
import static dev.billing.store.Attrs.str;

import dev.billing.domain.reconciliation.Finding;
import dev.billing.domain.reconciliation.FindingKind;
import dev.billing.domain.reconciliation.ReconciliationCounts;
import dev.billing.domain.reconciliation.ReconciliationSummary;
import dev.billing.domain.reconciliation.Repair;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Reconciliation reports, in the billing table beside the subscriptions (single-table design),
 * under keys no subscription item can have:
 *
 * <pre>
 * PK RECONCILIATION            SK &lt;startedAt&gt;#&lt;reportId&gt;   the report head, listed newest first
 * PK RECONCILIATION#&lt;id&gt;       SK REPORT                      the same head, read by id
 * PK RECONCILIATION#&lt;id&gt;       SK FINDING#&lt;finding key&gt;      one item per finding
 * </pre>
 *
 * Neither carries a due date, so no GSI holds them. Every item expires {@link #RETENTION} after the
 * run started (TTL), and expired ones are filtered on read because the sweep lags. Thread-safe.
 */
public final class ReconciliationReports {
  /** A quarter of reports: enough to compare a month with the last. */
  public static final Duration RETENTION = Duration.ofDays(90);

  static final String LIST_PK = "RECONCILIATION";
  static final String REPORT_SK = "REPORT";
  static final String FINDING_PREFIX = "FINDING#";
  private static final int BATCH = 25;

  private final DynamoDbClient client;
  private final String table;
  private final QueryPager pager;

  public ReconciliationReports(DynamoDbClient client, String table, byte[] pageTokenKey) {
    this.client = Objects.requireNonNull(client, "client");
    this.table = Objects.requireNonNull(table, "table");
    this.pager = new QueryPager(client, new PageTokens(pageTokenKey.clone()));
  }

  /** Writes the head (list entry and by-id copy) in one transaction; rewriting it is harmless. */
  public void save(ReconciliationSummary summary) {
    Keys.requireId("reportId", summary.reportId());
    Map<String, AttributeValue> head = head(summary);
    Map<String, AttributeValue> listed = new HashMap<>(head);
    listed.put(Keys.PK, s(LIST_PK));
    listed.put(Keys.SK, s(Timestamps.format(summary.startedAt()) + "#" + summary.reportId()));
    Map<String, AttributeValue> byId = new HashMap<>(head);
    byId.put(Keys.PK, s(reportPk(summary.reportId())));
    byId.put(Keys.SK, s(REPORT_SK));
    client.transactWriteItems(
        r ->
            r.transactItems(
                TransactWriteItem.builder()
                    .put(Put.builder().tableName(table).item(listed).build())
                    .build(),
                TransactWriteItem.builder()
                    .put(Put.builder().tableName(table).item(byId).build())
                    .build()));
  }

  /**
   * Stores findings under their report; a finding with the same key (the same thing found again by
   * a retried step) replaces the earlier item, so each is stored once.
   */
  public void addFindings(String reportId, Instant startedAt, List<Finding> findings) {
    Keys.requireId("reportId", reportId);
    Map<String, Map<String, AttributeValue>> byKey = new HashMap<>();
    for (Finding finding : findings) {
      byKey.put(finding.key(), findingItem(reportId, startedAt, finding));
    }
    List<WriteRequest> writes =
        byKey.values().stream()
            .map(
                item ->
                    WriteRequest.builder()
                        .putRequest(PutRequest.builder().item(item).build())
                        .build())
            .toList();
    for (int i = 0; i < writes.size(); i += BATCH) {
      List<WriteRequest> batch = writes.subList(i, Math.min(writes.size(), i + BATCH));
      Map<String, List<WriteRequest>> pending = Map.of(table, batch);
      for (int round = 0; !pending.isEmpty(); round++) {
        if (round > 8) {
          throw new IllegalStateException(
              "DynamoDB left findings of report " + reportId + " unwritten");
        }
        Map<String, List<WriteRequest>> request = pendingCopy(pending);
        BatchWriteItemResponse response = client.batchWriteItem(r -> r.requestItems(request));
        pending = response.hasUnprocessedItems() ? response.unprocessedItems() : Map.of();
        backOff(round, pending);
      }
    }
  }

  /** Reports, newest first, expired ones left out. */
  public Page<ReconciliationSummary> list(Instant now, PageRequest page) {
    return pager.page(
        QueryRequest.builder()
            .tableName(table)
            .keyConditionExpression("PK = :pk")
            .filterExpression("ExpiresAt > :now")
            .expressionAttributeValues(
                Map.of(":pk", s(LIST_PK), ":now", Attrs.n(now.getEpochSecond())))
            .scanIndexForward(false)
            .build(),
        table + "|" + LIST_PK,
        page,
        ReconciliationReports::summary);
  }

  public Optional<ReconciliationSummary> get(String reportId, Instant now) {
    Keys.requireId("reportId", reportId);
    Map<String, AttributeValue> item =
        client
            .getItem(
                r ->
                    r.tableName(table)
                        .consistentRead(true)
                        .key(Map.of(Keys.PK, s(reportPk(reportId)), Keys.SK, s(REPORT_SK))))
            .item();
    if (item == null || item.isEmpty() || expired(item, now)) {
      return Optional.empty();
    }
    return Optional.of(summary(item));
  }

  /** A report's findings, by kind then subscription. */
  public Page<Finding> findings(String reportId, Instant now, PageRequest page) {
    Keys.requireId("reportId", reportId);
    String pk = reportPk(reportId);
    return pager.page(
        QueryRequest.builder()
            .tableName(table)
            .keyConditionExpression("PK = :pk AND begins_with(SK, :prefix)")
            .filterExpression("ExpiresAt > :now")
            .expressionAttributeValues(
                Map.of(
                    ":pk",
                    s(pk),
                    ":prefix",
                    s(FINDING_PREFIX),
                    ":now",
                    Attrs.n(now.getEpochSecond())))
            .consistentRead(true)
            .build(),
        table + "|" + pk,
        page,
        ReconciliationReports::finding);
  }

  static String reportPk(String reportId) {
    return LIST_PK + "#" + reportId;
  }

  static Instant expiresAt(Instant startedAt) {
    return startedAt.plus(RETENTION);
  }

  private static Map<String, AttributeValue> head(ReconciliationSummary summary) {
    Map<String, AttributeValue> item = new HashMap<>();
    item.put(Keys.TYPE, s("RECONCILIATION_REPORT"));
    item.put("ReportId", s(summary.reportId()));
    Attrs.putIfPresent(item, "WorkflowId", summary.workflowId());
    Attrs.putIfPresent(item, "Trigger", summary.trigger());
    item.put("Status", s(summary.status().name()));
    item.put("StartedAt", s(Timestamps.format(summary.startedAt())));
    if (summary.finishedAt() != null) {
      item.put("FinishedAt", s(Timestamps.format(summary.finishedAt())));
    }
    item.put("FromDate", s(Timestamps.date(summary.from())));
    item.put("ToDate", s(Timestamps.date(summary.to())));
    item.put("Repair", AttributeValue.fromBool(summary.repair()));
    ReconciliationCounts counts = summary.counts();
    item.put("SubscriptionsChecked", Attrs.n(counts.subscriptionsChecked()));
    item.put("ChargesCompared", Attrs.n(counts.chargesCompared()));
    item.put("EventsCompared", Attrs.n(counts.eventsCompared()));
    Map<String, AttributeValue> findings = new HashMap<>();
    counts.findings().forEach((kind, n) -> findings.put(kind.name(), Attrs.n(n)));
    item.put("Findings", AttributeValue.fromM(findings));
    item.put("Repaired", Attrs.n(counts.repaired()));
    item.put("RepairsFailed", Attrs.n(counts.repairsFailed()));
    item.put(
        "FailedSteps", AttributeValue.fromL(summary.failedSteps().stream().map(Attrs::s).toList()));
    item.put(ReceiptItems.EXPIRES_AT, Attrs.n(expiresAt(summary.startedAt()).getEpochSecond()));
    return item;
  }

  static ReconciliationSummary summary(Map<String, AttributeValue> item) {
    Map<FindingKind, Integer> findings = new EnumMap<>(FindingKind.class);
    AttributeValue stored = item.get("Findings");
    if (stored != null && stored.hasM()) {
      stored
          .m()
          .forEach((kind, n) -> findings.put(FindingKind.valueOf(kind), Integer.parseInt(n.n())));
    }
    AttributeValue failed = item.get("FailedSteps");
    String finishedAt = optStr(item, "FinishedAt");
    return new ReconciliationSummary(
        str(item, "ReportId"),
        optStr(item, "WorkflowId"),
        optStr(item, "Trigger"),
        ReconciliationSummary.Status.valueOf(str(item, "Status")),
        Timestamps.parse(str(item, "StartedAt")),
        finishedAt == null ? null : Timestamps.parse(finishedAt),
        LocalDate.parse(str(item, "FromDate")),
        LocalDate.parse(str(item, "ToDate")),
        Boolean.TRUE.equals(item.get("Repair").bool()),
        new ReconciliationCounts(
            Attrs.intNum(item, "SubscriptionsChecked"),
            Attrs.intNum(item, "ChargesCompared"),
            Attrs.intNum(item, "EventsCompared"),
            findings,
            Attrs.intNum(item, "Repaired"),
            Attrs.intNum(item, "RepairsFailed")),
        failed == null || !failed.hasL()
            ? List.of()
            : failed.l().stream().map(AttributeValue::s).toList());
  }

  private static Map<String, AttributeValue> findingItem(
      String reportId, Instant startedAt, Finding f) {
    Map<String, AttributeValue> item = new HashMap<>();
    item.put(Keys.PK, s(reportPk(reportId)));
    item.put(Keys.SK, s(FINDING_PREFIX + f.key()));
    item.put(Keys.TYPE, s("RECONCILIATION_FINDING"));
    item.put("Kind", s(f.kind().name()));
    Attrs.putIfPresent(item, "SubscriptionId", f.subscriptionId());
    Attrs.putIfPresent(item, "AccountId", f.accountId());
    if (f.cycle() != null) {
      item.put("Cycle", Attrs.n(f.cycle()));
    }
    Attrs.putIfPresent(item, "Reference", f.reference());
    item.put("Detail", s(f.detail()));
    item.put("Repair", s(f.repair().name()));
    item.put("At", s(Timestamps.format(f.at())));
    item.put(ReceiptItems.EXPIRES_AT, Attrs.n(expiresAt(startedAt).getEpochSecond()));
    return item;
  }

  static Finding finding(Map<String, AttributeValue> item) {
    AttributeValue cycle = item.get("Cycle");
    return new Finding(
        FindingKind.valueOf(str(item, "Kind")),
        optStr(item, "SubscriptionId"),
        optStr(item, "AccountId"),
        cycle == null ? null : Long.valueOf(cycle.n()),
        optStr(item, "Reference"),
        str(item, "Detail"),
        Repair.valueOf(str(item, "Repair")),
        Timestamps.parse(str(item, "At")));
  }

  private static boolean expired(Map<String, AttributeValue> item, Instant now) {
    AttributeValue expires = item.get(ReceiptItems.EXPIRES_AT);
    return expires != null && Long.parseLong(expires.n()) <= now.getEpochSecond();
  }

  private static Map<String, List<WriteRequest>> pendingCopy(
      Map<String, List<WriteRequest>> pending) {
    return new HashMap<>(pending);
  }

  private static void backOff(int round, Map<String, List<WriteRequest>> pending) {
    if (pending.isEmpty()) {
      return;
    }
    try {
      Thread.sleep(Math.min(1000L, 50L << round)); // DynamoDB throttled part of the batch
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while writing findings", e);
    }
  }
}
