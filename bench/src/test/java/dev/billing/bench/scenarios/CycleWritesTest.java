package dev.billing.bench.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.bench.dynamo.WriteUnits;
import dev.billing.devstack.EmbeddedDynamo;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.runtime.DynamoConnection;
import dev.billing.runtime.DynamoSettings;
import dev.billing.store.BillingTables;
import dev.billing.store.DynamoBillingStore;
import dev.billing.store.StoreSettings;
import dev.billing.store.TableNames;
import dev.billing.workflows.activities.ChargeResult;
import dev.billing.workflows.subscription.SubscriptionChanges;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

/**
 * The cycle's write model against the transactions the store really sends: two monthly cycles of a
 * benchmark subscription are written through {@link DynamoBillingStore} with the workflow's own
 * changes ({@link SubscriptionChanges}), every TransactWriteItems is caught on its way out and
 * priced item by item from what it puts or deletes and what was stored before, and the model read
 * back from the tables must come to the same units for the second cycle.
 */
class CycleWritesTest {
  private static final TableNames TABLES = TableNames.defaults();
  private static final String ACCOUNT = BenchSubscriptions.accountId("w", 0);
  private static final String SUBSCRIPTION = BenchSubscriptions.subscriptionId("w", 0);

  private static EmbeddedDynamo local;
  private static DynamoDbClient reader;

  @BeforeAll
  static void start() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    local = new EmbeddedDynamo(port);
    reader = DynamoConnection.clientBuilder(DynamoSettings.local(local.endpoint())).build();
    BillingTables.createIfMissing(reader, TABLES);
  }

  @AfterAll
  static void stop() throws Exception {
    reader.close();
    local.close();
  }

  @Test
  void theModelCountsEveryItemOfTheStoresTransactionsAtItsBilledSize() {
    Transactions sent = new Transactions();
    DynamoDbClient writer =
        DynamoConnection.clientBuilder(DynamoSettings.local(local.endpoint()))
            .overrideConfiguration(o -> o.addExecutionInterceptor(sent))
            .build();
    DynamoBillingStore store =
        new DynamoBillingStore(
            writer,
            TABLES,
            StoreSettings.defaults(
                "cycle-writes-test-page-token-key-0123456789".getBytes(StandardCharsets.UTF_8)));
    Instant at = Instant.parse("2026-01-01T00:00:00Z");
    RecordInput creation =
        SubscriptionChanges.creation(
            BenchSubscriptions.requested("w", 0, LocalDate.of(2026, 1, 1), 1, "UTC", at), null, at);
    store.createSubscription(creation);
    Subscription sub = creation.next();
    for (int cycle = 1; cycle <= 2; cycle++) {
      Instant due = sub.schedule().dueDate(sub.cycle()).atStartOfDay().toInstant(ZoneOffset.UTC);
      RecordInput reminder =
          SubscriptionChanges.reminderSent(sub, "msg_" + cycle, due.minusSeconds(3 * 86_400));
      store.updateSubscription(reminder);
      RecordInput paid =
          SubscriptionChanges.paid(
              reminder.next(), 1, new ChargeResult("ch_bench_" + cycle, due, false), due);
      store.updateSubscription(paid);
      sub = paid.next();
    }
    // creation, then reminder and charge of cycles 1 and 2
    assertThat(sent.priced).hasSize(5);
    Priced reminder = sent.priced.get(3);
    Priced charge = sent.priced.get(4);

    CycleWrites.Model model = CycleWrites.read(reader, TABLES, ACCOUNT, SUBSCRIPTION);

    // What the store writes beside the change itself, and the model with it.
    assertThat(reminder.sortKeys()).anyMatch(sk -> sk.startsWith("PER#"));
    assertThat(reminder.sortKeys()).noneMatch(sk -> sk.startsWith("EVT#"));
    assertThat(charge.sortKeys().stream().filter(sk -> sk.startsWith("EVT#"))).hasSize(1);
    assertThat(charge.sortKeys().stream().filter(sk -> sk.startsWith("PER#"))).hasSize(2);
    assertThat(model.lines())
        .extracting(CycleWrites.Line::what)
        .contains(
            "event payment.succeeded (x2) + its indexes",
            "SCHEDULED period of the next cycle (x2)",
            "SCHEDULED period of its cycle, written again (x2)");
    assertThat(model.lines().stream().filter(l -> l.change().equals("reminder")))
        .hasSize(reminder.items());
    assertThat(model.lines().stream().filter(l -> l.change().equals("charge")))
        .hasSize(charge.items());

    assertThat(model.units("reminder")).isEqualTo(reminder.units());
    assertThat(model.units("charge")).isEqualTo(charge.units());
    assertThat(model.total()).isEqualTo(reminder.units() + charge.units());
    writer.close();
  }

  /** One transaction as sent: the sort keys it writes and its AWS write units. */
  record Priced(List<String> sortKeys, long units) {
    int items() {
      return sortKeys.size();
    }
  }

  /**
   * Prices each TransactWriteItems before it runs, reading what each item replaces: the ground
   * truth the model, which sees only what is left after the run, must match.
   */
  private static final class Transactions implements ExecutionInterceptor {
    final List<Priced> priced = new ArrayList<>();

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
      if (context.request() instanceof TransactWriteItemsRequest request) {
        List<String> sortKeys = new ArrayList<>();
        long units = 0;
        for (TransactWriteItem op : request.transactItems()) {
          String table;
          Map<String, AttributeValue> key;
          Map<String, AttributeValue> after;
          if (op.put() != null) {
            table = op.put().tableName();
            after = op.put().item();
            key = Map.of("PK", after.get("PK"), "SK", after.get("SK"));
          } else if (op.delete() != null) {
            table = op.delete().tableName();
            key = op.delete().key();
            after = null;
          } else {
            throw new AssertionError("the store writes puts and deletes only: " + op);
          }
          Map<String, AttributeValue> stored =
              reader.getItem(r -> r.tableName(table).key(key).consistentRead(true)).item();
          Map<String, AttributeValue> before = stored.isEmpty() ? null : stored;
          units +=
              WriteUnits.transactional(before, after)
                  + WriteUnits.indexes(schema(table), before, after);
          sortKeys.add(key.get("SK").s());
        }
        priced.add(new Priced(sortKeys, units));
      }
    }

    private static CreateTableRequest schema(String table) {
      return table.equals(TABLES.billing())
          ? BillingTables.schema(BillingTables.BILLING_SCHEMA, table)
          : BillingTables.schema(BillingTables.HISTORY_SCHEMA, table);
    }
  }
}
