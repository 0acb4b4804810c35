package dev.billing.bench.stack;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.billing.activities.notifications.OutboxNotifier;
import dev.billing.activities.payments.PaymentGateway;
import dev.billing.activities.payments.sandbox.SandboxGateway;
import dev.billing.activities.payments.sandbox.SandboxSettings;
import dev.billing.bench.dynamo.CapacityMeter;
import dev.billing.bench.gateway.HttpGateway;
import dev.billing.bench.report.CpuProfile;
import dev.billing.bench.report.ThreadCpu;
import dev.billing.devstack.TestServerClock;
import dev.billing.domain.DunningPolicy;
import dev.billing.store.DynamoBillingStore;
import dev.billing.store.StoreSettings;
import dev.billing.store.TableNames;
import dev.billing.worker.BillingWorker;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerFactoryOptions;
import io.temporal.worker.WorkerOptions;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The worker process of the benchmark: {@link BillingWorker#register} and {@link
 * BillingWorker#registerReconciliation}, the production wiring, on a store that counts progress and
 * a metered DynamoDB client, with the dev stack's sandbox gateway and outbox. It runs in its own
 * JVM so that its heap and RSS are the worker's alone, not the test server's or DynamoDB Local's.
 *
 * <p>The harness talks to it over stdin/stdout, one line each way: {@code stats}, {@code counts}
 * (progress counters only: {@link CountingStore.Counts}), {@code gc} (full GC first, then stats),
 * {@code reset} (zeroes the capacity meter), {@code profile-start} and {@code profile-stop} (a
 * {@link CpuProfile}, answered as samples per component), {@code quit}. Answers are one JSON object
 * on a line starting with {@value #ANSWER}; logs go to stderr.
 */
public final class BenchWorker {
  static final String ANSWER = "BENCH ";
  static final String READY = "READY";

  /**
   * Optional: the harness's {@link dev.billing.bench.gateway.GatewayHttpServer} instead of a
   * sandbox of its own.
   */
  static final String GATEWAY_URL = "gateway-url";

  /**
   * Optional: payment activities started per second (BillingWorker's limit); unlimited when absent.
   */
  static final String PAYMENTS_PER_SECOND = "payments-per-second";

  /** Optional: "false" for a worker the harness kills (see {@link #stickiness}). */
  static final String STICKY = "sticky";

  public static void main(String[] args) throws Exception {
    Map<String, String> options = WorkerArgs.parse(args);
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    // Only answers go to stdout; a stray println anywhere else must not corrupt the protocol.
    System.setOut(System.err);

    CapacityMeter meter = new CapacityMeter();
    DynamoDbClient dynamo = DynamoClients.local(options.get("dynamo"), meter);
    DynamoBillingStore dynamoStore =
        new DynamoBillingStore(
            dynamo,
            TableNames.defaults(),
            StoreSettings.defaults(
                options.get("page-token-secret").getBytes(StandardCharsets.UTF_8)));
    CountingStore store = new CountingStore(dynamoStore);
    TestServerClock clock = new TestServerClock(options.get("temporal"));
    // A gateway served by the harness outlives this process (the crash scenario kills it).
    PaymentGateway gateway =
        options.containsKey(GATEWAY_URL)
            ? new HttpGateway(options.get(GATEWAY_URL))
            : LatentGateway.of(
                new SandboxGateway(clock, SandboxSettings.defaults().withoutRateLimit()),
                Duration.ofMillis(Long.parseLong(options.get("gateway-latency-ms"))));

    WorkflowServiceStubs stubs =
        WorkflowServiceStubs.newServiceStubs(
            WorkflowServiceStubsOptions.newBuilder().setTarget(options.get("temporal")).build());
    WorkflowClient client = WorkflowClient.newInstance(stubs);
    int cacheSize = Integer.parseInt(options.get("cache-size"));
    // A cached workflow keeps its thread: a cache larger than the SDK's thread default needs more.
    WorkerFactory factory =
        WorkerFactory.newInstance(
            client,
            WorkerFactoryOptions.newBuilder()
                .setWorkflowCacheSize(cacheSize)
                .setMaxWorkflowThreadCount(Math.max(600, cacheSize + 200))
                .build());
    int slots = Integer.parseInt(options.get("slots"));
    // Unlimited payments here and at the sandbox unless told (the crash scenario's gateway has a
    // limit): the benchmark measures the billing system's own ceiling; a gateway's rate limit
    // (Stripe live: 100/s, raisable) is a separate bound.
    double paymentsPerSecond =
        options.containsKey(PAYMENTS_PER_SECOND)
            ? Double.parseDouble(options.get(PAYMENTS_PER_SECOND))
            : BillingWorker.UNLIMITED;
    Worker worker =
        BillingWorker.register(
            factory,
            options.get("task-queue"),
            stickiness(
                    options,
                    WorkerOptions.newBuilder()
                        .setMaxConcurrentActivityExecutionSize(slots)
                        .setMaxConcurrentWorkflowTaskExecutionSize(slots)
                        .setMaxConcurrentLocalActivityExecutionSize(slots))
                .build(),
            new BillingWorker.Adapters(store, gateway, new OutboxNotifier()),
            paymentsPerSecond);
    // As the production worker: reconciliation on the same task queue, over the same store, taken
    // unwrapped for its date-key shard count (the counter counts the workflows' writes, not these).
    BillingWorker.registerReconciliation(
        worker,
        BillingWorker.reconciliation(
            dynamo,
            TableNames.defaults(),
            dynamoStore,
            options.get("page-token-secret").getBytes(StandardCharsets.UTF_8),
            client,
            options.get("task-queue"),
            gateway,
            "sandbox",
            DunningPolicy.DEFAULT,
            clock,
            null));
    factory.start();
    out.println(ANSWER + READY);

    ObjectMapper json = new ObjectMapper();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    CpuProfile profile = null;
    while ((line = in.readLine()) != null) {
      switch (line.trim()) {
        case "gc" -> {
          fullGc();
          out.println(ANSWER + stats(json, meter));
        }
        case "stats" -> out.println(ANSWER + stats(json, meter));
        // Polled while a billing day runs: counters only, so the polling costs next to nothing.
        case "counts" -> out.println(ANSWER + json.writeValueAsString(store.counts()));
        case "profile-start" -> {
          profile = CpuProfile.start();
          out.println(ANSWER + "{}");
        }
        case "profile-stop" -> {
          out.println(ANSWER + json.writeValueAsString(profile.stop()));
          profile = null;
        }
        case "reset" -> {
          meter.reset();
          out.println(ANSWER + "{}");
        }
        case "quit" -> {
          factory.shutdown();
          factory.awaitTermination(10, TimeUnit.SECONDS);
          stubs.shutdown();
          clock.close();
          dynamo.close();
          out.println(ANSWER + "{}");
          return;
        }
        default -> out.println(ANSWER + "{\"error\":\"unknown command\"}");
      }
    }
  }

  /**
   * {@value #STICKY}=false: no sticky task queue. A Temporal cluster moves a workflow task off a
   * dead worker's sticky queue after its schedule-to-start timeout (5 s); the Java test server has
   * no such timeout, so after a SIGKILL every workflow cached on the dead worker would wait
   * forever. A zero timeout makes the SDK ask for no stickiness: every task goes to the shared
   * queue with its full history, as after a cluster's fallback.
   */
  private static WorkerOptions.Builder stickiness(
      Map<String, String> options, WorkerOptions.Builder builder) {
    return "false".equals(options.get(STICKY))
        ? builder.setStickyQueueScheduleToStartTimeout(Duration.ZERO)
        : builder;
  }

  /** Two collections: the second reclaims what finalisation of the first released. */
  private static void fullGc() throws InterruptedException {
    System.gc();
    Thread.sleep(100);
    System.gc();
  }

  private static String stats(ObjectMapper json, CapacityMeter meter) {
    ObjectNode node = json.createObjectNode();
    node.put("heapUsed", ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
    node.put("rss", residentSetBytes());
    node.put(
        "cpuMillis",
        ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class)
                .getProcessCpuTime()
            / 1_000_000);
    node.set("capacity", json.valueToTree(meter.snapshot()));
    node.set("threadCpu", json.valueToTree(ThreadCpu.snapshot()));
    return node.toString();
  }

  /** VmRSS from /proc (Linux); -1 elsewhere. */
  static long residentSetBytes() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          String[] parts = line.trim().split("\\s+");
          return Long.parseLong(parts[1]) * 1024;
        }
      }
    } catch (Exception e) {
      // not Linux: reported as unknown
    }
    return -1;
  }
}
