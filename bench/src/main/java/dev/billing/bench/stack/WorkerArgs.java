package dev.billing.bench.stack;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The worker process's command line: {@code --name=value} pairs, all required. */
final class WorkerArgs {
  static final List<String> NAMES =
      List.of(
          "temporal",
          "dynamo",
          "task-queue",
          "slots",
          "cache-size",
          "gateway-latency-ms",
          "page-token-secret");

  private WorkerArgs() {}

  static Map<String, String> parse(String[] args) {
    Map<String, String> options = new LinkedHashMap<>();
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (!arg.startsWith("--") || eq < 0) {
        throw new IllegalArgumentException("expected --name=value, got " + arg);
      }
      options.put(arg.substring(2, eq), arg.substring(eq + 1));
    }
    for (String name : NAMES) {
      if (!options.containsKey(name)) {
        throw new IllegalArgumentException("missing --" + name);
      }
    }
    return options;
  }

  static String[] format(Map<String, String> options) {
    return options.entrySet().stream()
        .map(e -> "--" + e.getKey() + "=" + e.getValue())
        .toArray(String[]::new);
  }
}
