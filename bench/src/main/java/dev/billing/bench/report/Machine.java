package dev.billing.bench.report;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Where and on what the benchmark ran: the figures mean nothing without it. */
public final class Machine {
  private Machine() {}

  public static Map<String, Object> describe() {
    Map<String, Object> machine = new LinkedHashMap<>();
    var os = ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class);
    machine.put("cores", Runtime.getRuntime().availableProcessors());
    machine.put("cpu", cpuModel());
    machine.put("memoryBytes", os.getTotalMemorySize());
    machine.put(
        "os",
        System.getProperty("os.name")
            + " "
            + System.getProperty("os.version")
            + " ("
            + System.getProperty("os.arch")
            + ")");
    machine.put(
        "jdk",
        System.getProperty("java.vm.vendor")
            + " "
            + System.getProperty("java.vm.name")
            + " "
            + System.getProperty("java.runtime.version"));
    machine.put("loadAverage1m", os.getSystemLoadAverage());
    return machine;
  }

  public static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  private static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (Exception e) {
      // not Linux
    }
    return System.getProperty("os.arch");
  }

  /** Versions of what is measured, read from the jar names on the classpath. */
  public static Map<String, String> versions() {
    Map<String, String> versions = new LinkedHashMap<>();
    String classpath = System.getProperty("java.class.path");
    put(versions, classpath, "temporal-sdk", "temporal-sdk-([0-9][^/:]*?)\\.jar");
    put(versions, classpath, "temporal-test-server", "temporal-test-server-([0-9][^/:]*?)\\.jar");
    put(versions, classpath, "aws-sdk-dynamodb", "/dynamodb-([0-9][^/:]*?)\\.jar");
    put(versions, classpath, "DynamoDBLocal", "DynamoDBLocal-([0-9][^/:]*?)\\.jar");
    put(versions, classpath, "dropwizard-core", "dropwizard-core-([0-9][^/:]*?)\\.jar");
    put(versions, classpath, "jetty-server", "jetty-server-([0-9][^/:]*?)\\.jar");
    versions.put("billing", System.getProperty("bench.commit", "unknown"));
    return versions;
  }

  private static void put(
      Map<String, String> versions, String classpath, String name, String regex) {
    Matcher matcher = Pattern.compile(regex).matcher(classpath);
    versions.put(name, matcher.find() ? matcher.group(1) : "unknown");
  }
}
