package dev.billing.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Subscription;
import dev.billing.domain.reconciliation.Finding;
import dev.billing.domain.reconciliation.FindingKind;
import dev.billing.domain.reconciliation.ReconciliationCounts;
import dev.billing.domain.reconciliation.ReconciliationSummary;
import dev.billing.domain.reconciliation.Repair;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Reconciliation's reads (keys and index partitions only) and its reports. */
class ReconciliationStoreTest extends StoreTestBase {

  private ReconciliationQueries queries;
  private ReconciliationReports reports;

  @BeforeEach
  void wire() {
    queries = new ReconciliationQueries(store);
    reports = new ReconciliationReports(client, tables.billing(), Fixtures.KEY);
  }

  @Test
  void duePaymentsPagesThroughOneDatePartitionWithAnOpaqueCursor() {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      Subscription s = Fixtures.subscription(id("acc" + i), id("sub" + i));
      store.createSubscription(Fixtures.created(s));
      ids.add(s.subscriptionId());
    }
    Subscription other = Fixtures.subscription(id("acc-x"), id("sub-x")).scheduledFor(2);
    store.createSubscription(Fixtures.created(other));

    List<String> seen = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      ReconciliationQueries.DueBatch batch =
          queries.duePayments(LocalDate.of(2026, 2, 15), cursor, 2);
      batch.items().forEach(d -> seen.add(d.subscriptionId()));
      cursor = batch.nextCursor();
      pages++;
    } while (cursor != null);

    assertThat(seen).containsExactlyInAnyOrderElementsOf(ids);
    assertThat(pages).isBetween(3, 4);
    assertThatThrownBy(() -> queries.duePayments(LocalDate.of(2026, 2, 15), "not-a-cursor!", 2))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void paidBetweenReadsOnlyTheNextCyclePartitionWithinTheLastPaymentWindow() {
    Subscription paidInWindow = Fixtures.subscription(id("acc-a"), id("sub-a"));
    store.createSubscription(Fixtures.created(paidInWindow));
    store.updateSubscription(
        Fixtures.paid(paidInWindow, 1, "txn_a", Instant.parse("2026-02-14T23:00:05Z")));
    Subscription paidBefore = Fixtures.subscription(id("acc-b"), id("sub-b"));
    store.createSubscription(Fixtures.created(paidBefore));
    store.updateSubscription(
        Fixtures.paid(paidBefore, 1, "txn_b", Instant.parse("2026-02-10T08:00:00Z")));

    List<DuePayment> paid =
        queries.paidBetween(
            LocalDate.of(2026, 3, 15),
            Instant.parse("2026-02-14T00:00:00Z"),
            Instant.parse("2026-02-15T00:00:00Z"));

    assertThat(paid)
        .extracting(DuePayment::subscriptionId)
        .containsExactly(paidInWindow.subscriptionId());
    assertThat(paid.get(0).lastPaymentAt()).isEqualTo(Instant.parse("2026-02-14T23:00:05Z"));
  }

  @Test
  void accountPeriodAndReceiptsOfASubscription() {
    Subscription s = Fixtures.subscription(id("acc"), id("sub"));
    store.createSubscription(Fixtures.created(s));
    Instant paidAt = Instant.parse("2026-02-14T23:00:05.120Z");
    store.updateSubscription(Fixtures.paid(s, 1, "txn_1", paidAt));

    assertThat(queries.accountOf(s.subscriptionId())).contains(s.accountId());
    assertThat(queries.accountOf(id("nobody"))).isEmpty();
    assertThat(queries.period(s.accountId(), s.subscriptionId(), 1))
        .get()
        .extracting(p -> p.status(), p -> p.transactionId())
        .containsExactly(PeriodStatus.COMPLETED, "txn_1");
    assertThat(queries.period(s.accountId(), s.subscriptionId(), 2)).isEmpty();
    assertThat(queries.periods(s.accountId(), s.subscriptionId())).hasSize(1);
    assertThat(queries.receiptsBetween(s.accountId(), paidAt, paidAt))
        .extracting(r -> r.transactionId())
        .containsExactly("txn_1");
    assertThat(queries.receiptsBetween(s.accountId(), paidAt.plusMillis(1), paidAt.plusSeconds(60)))
        .isEmpty();
  }

  @Test
  void aReportIsListedNewestFirstReadByIdWithItsFindingsStoredOnceEach() {
    Instant now = Instant.parse("2026-03-10T03:00:00Z");
    ReconciliationSummary older = summary("run-1", Instant.parse("2026-03-09T03:00:00Z"));
    ReconciliationSummary running = summary("run-2", now);
    reports.save(older.finished(Instant.parse("2026-03-09T03:01:00Z")));
    reports.save(running);
    Finding missing =
        new Finding(
            FindingKind.WORKFLOW_MISSING,
            "sub-1",
            "acc-1",
            3L,
            "subscription-sub-1",
            "no workflow; restarted from the record",
            Repair.WORKFLOW_RESTARTED,
            now);
    Finding missed =
        new Finding(
            FindingKind.WEBHOOK_MISSED,
            "sub-2",
            null,
            null,
            "evt_1",
            "charge.succeeded never arrived",
            Repair.EVENT_REPLAYED,
            now);
    reports.addFindings("run-2", now, List.of(missing, missed));
    reports.addFindings("run-2", now, List.of(missing)); // a retried step

    ReconciliationSummary done =
        running
            .withCounts(
                new ReconciliationCounts(
                    40,
                    12,
                    30,
                    Map.of(FindingKind.WORKFLOW_MISSING, 1, FindingKind.WEBHOOK_MISSED, 1),
                    2,
                    0))
            .withFailedStep("CompareGatewayCharges 2026-03-09: gateway down")
            .finished(now.plusSeconds(90));
    reports.save(done);

    assertThat(reports.list(now, PageRequest.first(10)).items())
        .extracting(ReconciliationSummary::reportId)
        .containsExactly("run-2", "run-1");
    ReconciliationSummary read = reports.get("run-2", now).orElseThrow();
    assertThat(read).isEqualTo(done);
    assertThat(read.status()).isEqualTo(ReconciliationSummary.Status.PARTIAL);
    assertThat(reports.findings("run-2", now, PageRequest.first(10)).items())
        .containsExactly(missed, missing);
    assertThat(reports.get("run-3", now)).isEmpty();
    // 90 days later the sweep may not have run yet: expired reports are not shown.
    Instant later = now.plus(ReconciliationReports.RETENTION);
    assertThat(reports.get("run-2", later)).isEmpty();
    assertThat(reports.list(later, PageRequest.first(10)).items()).isEmpty();
  }

  private static ReconciliationSummary summary(String id, Instant startedAt) {
    return new ReconciliationSummary(
        id,
        "billing-reconciliation",
        "schedule",
        ReconciliationSummary.Status.RUNNING,
        startedAt,
        null,
        LocalDate.of(2026, 3, 7),
        LocalDate.of(2026, 3, 10),
        true,
        null,
        null);
  }
}
