package dev.billing.bench.stack;

import dev.billing.api.auth.keys.ApiKeyService;
import dev.billing.api.auth.keys.ApiKeyStore;
import dev.billing.bench.dynamo.CapacityMeter;
import dev.billing.devstack.EmbeddedDynamo;
import dev.billing.devstack.EmbeddedTemporal;
import dev.billing.store.BillingTables;
import dev.billing.store.DynamoBillingStore;
import dev.billing.store.StoreSettings;
import dev.billing.store.TableNames;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The embedded stack of the dev stack, spread over processes as production spreads it: this JVM
 * runs Temporal's test server (gRPC, clock under the harness's control) and DynamoDB Local (HTTP,
 * in memory); the worker runs in its own JVM ({@link WorkerProcess}) and so, when asked for, does
 * the API ({@link ApiProcess}). Every scenario starts a fresh one so that none inherits another's
 * data.
 */
public final class BenchStack implements AutoCloseable {
  /** Signs page tokens in the worker and the API; a benchmark value, never used elsewhere. */
  static final String PAGE_TOKEN_SECRET = "bench-only-page-token-secret-0123456789";

  /**
   * The server does not move the clock while tasks are outstanding, so a jump across a billing day
   * lasts as long as billing it: an hour, not the dev stack's few minutes.
   */
  private static final Duration JUMP_DEADLINE = Duration.ofHours(1);

  private static final TableNames TABLES = TableNames.defaults();

  private final EmbeddedTemporal temporal;
  private final EmbeddedDynamo dynamo;
  private final CapacityMeter harnessMeter = new CapacityMeter();
  private final DynamoDbClient harnessDynamo;
  private final DynamoBillingStore harnessStore;
  private final WorkflowServiceStubs stubs;
  private final WorkflowClient client;
  private final Settings settings;
  private WorkerProcess worker;
  private ApiProcess api;
  private final Path logs;

  private BenchStack(Settings settings, boolean startWorker) throws Exception {
    this.settings = settings;
    this.logs = settings.logs();
    Files.createDirectories(logs);
    this.temporal = new EmbeddedTemporal(freePort(), JUMP_DEADLINE);
    temporal.registerSearchAttributes("default");
    this.dynamo = new EmbeddedDynamo(freePort());
    this.harnessDynamo = DynamoClients.local(dynamo.endpoint(), harnessMeter);
    BillingTables.createIfMissing(harnessDynamo, TABLES);
    this.harnessStore =
        new DynamoBillingStore(
            harnessDynamo,
            TABLES,
            StoreSettings.defaults(PAGE_TOKEN_SECRET.getBytes(StandardCharsets.UTF_8)));
    this.stubs =
        WorkflowServiceStubs.newServiceStubs(
            WorkflowServiceStubsOptions.newBuilder().setTarget(temporal.target()).build());
    this.client = WorkflowClient.newInstance(stubs);
    if (startWorker) {
      startWorker(Map.of());
    }
  }

  /**
   * @param name names the log files of the child processes
   * @param slots the worker's concurrent activity and workflow task slots
   * @param gatewayLatencyMillis how long each charge takes at the worker's sandbox gateway
   */
  public record Settings(
      String name,
      int slots,
      int cacheSize,
      int gatewayLatencyMillis,
      String workerHeap,
      Path logs) {}

  public static BenchStack start(Settings settings) throws Exception {
    return new BenchStack(settings, true);
  }

  /**
   * The stack without its worker: {@link #startWorker} starts it (and starts it again after a
   * kill).
   */
  public static BenchStack startWithoutWorker(Settings settings) throws Exception {
    return new BenchStack(settings, false);
  }

  /**
   * Starts a worker process (the previous one, if any, must be gone), its log appended to the
   * stack's worker log.
   *
   * @param extra optional worker options (the crash scenario's {@code gateway-url})
   */
  public WorkerProcess startWorker(Map<String, String> extra) throws Exception {
    worker =
        WorkerProcess.start(
            temporal.target(),
            dynamo.endpoint(),
            settings.slots(),
            settings.cacheSize(),
            settings.gatewayLatencyMillis(),
            settings.workerHeap(),
            logs.resolve(settings.name() + "-worker.log"),
            extra);
    return worker;
  }

  /** Starts the API process on this stack (once). */
  public ApiProcess startApi(String heap, String name) throws Exception {
    if (api == null) {
      // An operator key, created as `./billing keys` creates one: the API accepts nothing unsigned.
      String token =
          new ApiKeyService(new ApiKeyStore(harnessDynamo, TABLES.billing()), clock())
              .create("operator", null, "bench", "bench")
              .token();
      api =
          ApiProcess.start(
              temporal.target(),
              dynamo.endpoint(),
              freePort(),
              freePort(),
              heap,
              logs.resolve(name + "-api.log"),
              token);
    }
    return api;
  }

  public WorkerProcess worker() {
    return worker;
  }

  public WorkflowClient client() {
    return client;
  }

  /**
   * The store as the harness uses it (batch baseline, ceiling, checks), on the harness's metered
   * client.
   */
  public DynamoBillingStore store() {
    return harnessStore;
  }

  public DynamoDbClient dynamo() {
    return harnessDynamo;
  }

  /** The tables of this stack: the store's defaults, as the worker and the API use them. */
  public TableNames tables() {
    return TABLES;
  }

  public CapacityMeter harnessMeter() {
    return harnessMeter;
  }

  /** What workflows see as now. */
  public Instant now() {
    return temporal.clock().instant();
  }

  public java.time.InstantSource clock() {
    return temporal.clock();
  }

  /**
   * Moves the test clock to {@code instant} (nothing when it is already there), firing every timer
   * due on the way.
   */
  public Instant advanceTo(Instant instant) {
    Duration left = Duration.between(now(), instant);
    return left.isNegative() || left.isZero() ? now() : temporal.advance(left);
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    }
  }

  @Override
  public void close() {
    quietly(
        () -> {
          if (api != null) {
            api.close();
          }
        });
    quietly(
        () -> {
          if (worker != null) {
            worker.close();
          }
        });
    quietly(
        () -> {
          stubs.shutdown();
          stubs.awaitTermination(5, TimeUnit.SECONDS);
        });
    quietly(harnessDynamo::close);
    quietly(dynamo::close);
    quietly(temporal::close);
  }

  private interface Step {
    void run() throws Exception;
  }

  private static void quietly(Step step) {
    try {
      step.run();
    } catch (Exception e) {
      System.err.println("bench: error while stopping: " + e);
    }
  }
}
