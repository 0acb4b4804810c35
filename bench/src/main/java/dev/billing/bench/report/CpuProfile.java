package dev.billing.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * A CPU profile of this JVM by Java Flight Recorder's execution samples (threads running Java code,
 * every {@value #PERIOD_MS} ms), each sample charged to a component. A server embedded in the
 * process owns everything on its stacks (DynamoDB Local's JSON parsing is DynamoDB Local's, the
 * test server's protobuf building the test server's); any other sample goes to the library of its
 * innermost frame outside the JDK (a HashMap lookup inside protobuf parsing is protobuf's). Cheap
 * enough to leave on during a measurement (well under 1% at this period).
 */
public final class CpuProfile {
  public static final int PERIOD_MS = 20;
  private static final String SAMPLE = "jdk.ExecutionSample";

  private static final String TEST_SERVER =
      "Temporal test server (its handlers, their protobuf and JSON)";
  private static final String DYNAMODB_LOCAL = "DynamoDB Local (its HTTP server, JSON, SQLite)";

  /** Embedded servers: a sample with any of their frames is theirs. */
  private static final List<Map.Entry<String, String>> SERVERS =
      List.of(
          Map.entry("io.temporal.internal.testservice", TEST_SERVER),
          Map.entry("io.temporal.testserver", TEST_SERVER),
          Map.entry("com.amazonaws.services.dynamodbv2", DYNAMODB_LOCAL),
          Map.entry("com.amazon.dynamodb", DYNAMODB_LOCAL),
          Map.entry("com.almworks.sqlite4java", DYNAMODB_LOCAL),
          // Only DynamoDB Local serves HTTP in the processes profiled (the API runs in its own).
          Map.entry("org.eclipse.jetty", DYNAMODB_LOCAL));

  /** Package prefix, component; the first match wins, so narrower prefixes come first. */
  private static final List<Map.Entry<String, String>> COMPONENTS =
      List.of(
          Map.entry("software.amazon.awssdk", "AWS SDK (DynamoDB client)"),
          Map.entry("io.temporal.internal.replay", "Temporal SDK: workflow tasks and replay"),
          Map.entry(
              "io.temporal.internal.statemachines", "Temporal SDK: workflow tasks and replay"),
          Map.entry("io.temporal.internal.sync", "Temporal SDK: workflow tasks and replay"),
          Map.entry("io.temporal.api", "Temporal protobuf messages"),
          Map.entry("io.temporal", "Temporal SDK: pollers, client, converters"),
          Map.entry("io.grpc", "gRPC and Netty"),
          Map.entry("com.google.protobuf", "protobuf"),
          Map.entry("com.fasterxml.jackson", "Jackson (JSON payloads, records)"),
          Map.entry("com.github.mustachejava", "Mustache (receipt and reminder mail)"),
          Map.entry("dev.billing", "billing code"),
          Map.entry("ch.qos.logback", "logging"),
          Map.entry("org.slf4j", "logging"),
          Map.entry("org.apache.logging", "logging"));

  private final Recording recording;

  private CpuProfile(Recording recording) {
    this.recording = recording;
  }

  public static CpuProfile start() {
    Recording recording = new Recording();
    recording.enable(SAMPLE).withPeriod(Duration.ofMillis(PERIOD_MS));
    recording.setToDisk(true);
    recording.start();
    return new CpuProfile(recording);
  }

  /** Stops the recording; samples per component, most first. */
  public Map<String, Long> stop() throws IOException {
    recording.stop();
    Path file = Files.createTempFile("bench-profile", ".jfr");
    try {
      recording.dump(file);
      Map<String, Long> samples = new TreeMap<>();
      try (RecordingFile events = new RecordingFile(file)) {
        while (events.hasMoreEvents()) {
          RecordedEvent event = events.readEvent();
          if (SAMPLE.equals(event.getEventType().getName()) && event.getStackTrace() != null) {
            samples.merge(component(event.getStackTrace().getFrames()), 1L, Long::sum);
          }
        }
      }
      return byCount(samples);
    } finally {
      recording.close();
      Files.deleteIfExists(file);
    }
  }

  static String component(List<RecordedFrame> frames) {
    for (RecordedFrame frame : frames) {
      String server = server(frame.getMethod().getType().getName());
      if (server != null) {
        return server;
      }
    }
    for (RecordedFrame frame : frames) {
      String type = frame.getMethod().getType().getName();
      String component = component(type);
      if (component != null) {
        return component;
      }
    }
    return "JDK only (threads, I/O, GC barriers)";
  }

  /** The embedded server a class belongs to, or null. */
  static String server(String className) {
    return match(SERVERS, className);
  }

  /** The component of a class, or null for the JDK's own and unknown libraries' (look further). */
  static String component(String className) {
    String server = server(className);
    return server != null ? server : match(COMPONENTS, className);
  }

  private static String match(List<Map.Entry<String, String>> prefixes, String className) {
    for (Map.Entry<String, String> entry : prefixes) {
      if (className.startsWith(entry.getKey())) {
        return entry.getValue();
      }
    }
    return null;
  }

  /** Sums profiles (one per trial). */
  public static Map<String, Long> merge(List<Map<String, Long>> profiles) {
    Map<String, Long> merged = new TreeMap<>();
    profiles.forEach(p -> p.forEach((k, v) -> merged.merge(k, v, Long::sum)));
    return byCount(merged);
  }

  private static Map<String, Long> byCount(Map<String, Long> samples) {
    Map<String, Long> ordered = new LinkedHashMap<>();
    samples.entrySet().stream()
        .sorted(
            Map.Entry.<String, Long>comparingByValue()
                .reversed()
                .thenComparing(Map.Entry.comparingByKey()))
        .forEach(e -> ordered.put(e.getKey(), e.getValue()));
    return ordered;
  }
}
