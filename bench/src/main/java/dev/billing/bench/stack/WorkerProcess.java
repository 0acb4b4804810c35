package dev.billing.bench.stack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.billing.bench.dynamo.ConsumedUnits;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The harness's handle on a {@link BenchWorker} process. Not thread-safe: one caller at a time. */
public final class WorkerProcess implements AutoCloseable {

  /**
   * What the worker reports: its memory, its CPU time so far, and its meter's count since the last
   * reset.
   */
  public record Stats(
      long heapUsed,
      long rss,
      long cpuMillis,
      ConsumedUnits capacity,
      Map<String, Long> threadCpu) {}

  private final Process process;
  private final BufferedReader answers;
  private final PrintWriter commands;
  private final ObjectMapper json = new ObjectMapper();
  private final int cacheSize;
  private final String heap;

  private WorkerProcess(Process process, int cacheSize, String heap) {
    this.process = process;
    this.answers =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    this.commands = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
    this.cacheSize = cacheSize;
    this.heap = heap;
  }

  /**
   * @param slots concurrent activity and workflow task executions (the batch baseline uses as many
   *     threads)
   * @param cacheSize the SDK's sticky workflow cache (its default is 600)
   * @param gatewayLatencyMillis how long each charge takes at the sandbox gateway
   * @param heap the -Xmx of the worker JVM
   */
  public static WorkerProcess start(
      String temporalTarget,
      String dynamoEndpoint,
      int slots,
      int cacheSize,
      int gatewayLatencyMillis,
      String heap,
      Path log)
      throws Exception {
    return start(
        temporalTarget,
        dynamoEndpoint,
        slots,
        cacheSize,
        gatewayLatencyMillis,
        heap,
        log,
        Map.of());
  }

  /**
   * @param extra optional worker options, e.g. {@value BenchWorker#GATEWAY_URL}
   */
  static WorkerProcess start(
      String temporalTarget,
      String dynamoEndpoint,
      int slots,
      int cacheSize,
      int gatewayLatencyMillis,
      String heap,
      Path log,
      Map<String, String> extra)
      throws Exception {
    Map<String, String> options = new LinkedHashMap<>();
    options.put("temporal", temporalTarget);
    options.put("dynamo", dynamoEndpoint);
    options.put("task-queue", dev.billing.workflows.TaskQueues.BILLING);
    options.put("slots", Integer.toString(slots));
    options.put("cache-size", Integer.toString(cacheSize));
    options.put("gateway-latency-ms", Integer.toString(gatewayLatencyMillis));
    options.put("page-token-secret", BenchStack.PAGE_TOKEN_SECRET);
    options.putAll(extra);
    Process process =
        ChildJvm.start(
            BenchWorker.class.getName(),
            List.of("-Xmx" + heap, "-Xms" + heap, "-XX:+UseG1GC"),
            List.of(WorkerArgs.format(options)),
            Map.of(),
            log);
    WorkerProcess worker = new WorkerProcess(process, cacheSize, heap);
    worker.awaitReady();
    return worker;
  }

  private void awaitReady() throws IOException {
    String answer = readAnswer();
    if (!BenchWorker.READY.equals(answer)) {
      throw new IllegalStateException("worker did not start: " + answer);
    }
  }

  /** Progress since the worker started; cheap enough to poll while a billing day runs. */
  public CountingStore.Counts counts() throws IOException {
    commands.println("counts");
    return json.readValue(readAnswer(), CountingStore.Counts.class);
  }

  public Stats stats() throws IOException {
    return ask("stats");
  }

  /** Stats after a full GC: the live heap. */
  public Stats statsAfterGc() throws IOException {
    return ask("gc");
  }

  /** Starts a {@link dev.billing.bench.report.CpuProfile} in the worker. */
  public void startProfile() throws IOException {
    commands.println("profile-start");
    readAnswer();
  }

  /** Stops the worker's profile: samples per component, most first. */
  public Map<String, Long> stopProfile() throws IOException {
    commands.println("profile-stop");
    return longs(json.readTree(readAnswer()));
  }

  public void resetMeter() throws IOException {
    commands.println("reset");
    readAnswer();
  }

  public int cacheSize() {
    return cacheSize;
  }

  public String heap() {
    return heap;
  }

  private Stats ask(String command) throws IOException {
    commands.println(command);
    JsonNode node = json.readTree(readAnswer());
    return new Stats(
        node.get("heapUsed").asLong(),
        node.get("rss").asLong(),
        node.get("cpuMillis").asLong(),
        json.treeToValue(node.get("capacity"), ConsumedUnits.class),
        longs(node.get("threadCpu")));
  }

  private static Map<String, Long> longs(JsonNode node) {
    Map<String, Long> cpu = new LinkedHashMap<>();
    node.fields().forEachRemaining(e -> cpu.put(e.getKey(), e.getValue().asLong()));
    return cpu;
  }

  private String readAnswer() throws IOException {
    String line;
    while ((line = answers.readLine()) != null) {
      if (line.startsWith(BenchWorker.ANSWER)) {
        return line.substring(BenchWorker.ANSWER.length());
      }
    }
    throw new IOException("the worker process ended (exit " + exitCode() + "); see its log");
  }

  private String exitCode() {
    try {
      return process.waitFor(2, TimeUnit.SECONDS)
          ? Integer.toString(process.exitValue())
          : "still running";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }

  public long pid() {
    return process.pid();
  }

  /**
   * Kills the process with SIGKILL ({@link Process#destroyForcibly()} on Linux): no shutdown hook,
   * no finally block, no graceful poll shutdown runs. Returns once it is gone.
   */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException(
          "worker " + process.pid() + " still alive 30 s after SIGKILL");
    }
  }

  @Override
  public void close() {
    try {
      if (process.isAlive()) {
        commands.println("quit");
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
          process.destroy();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroy();
    }
  }
}
