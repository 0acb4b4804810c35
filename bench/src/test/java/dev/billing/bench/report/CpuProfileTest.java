package dev.billing.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CpuProfileTest {

  @Test
  void classesAreChargedToTheirComponentAndTheJdkIsLookedThrough() {
    assertThat(CpuProfile.component("io.temporal.internal.testservice.TestWorkflowService"))
        .isEqualTo("Temporal test server (its handlers, their protobuf and JSON)");
    assertThat(CpuProfile.component("com.almworks.sqlite4java.SQLiteConnection"))
        .isEqualTo("DynamoDB Local (its HTTP server, JSON, SQLite)");
    assertThat(CpuProfile.component("io.temporal.internal.replay.ReplayWorkflowRunTaskHandler"))
        .isEqualTo("Temporal SDK: workflow tasks and replay");
    assertThat(CpuProfile.component("io.temporal.internal.worker.ActivityWorker"))
        .isEqualTo("Temporal SDK: pollers, client, converters");
    assertThat(
            CpuProfile.component("software.amazon.awssdk.core.internal.http.AmazonSyncHttpClient"))
        .isEqualTo("AWS SDK (DynamoDB client)");
    assertThat(CpuProfile.component("java.util.HashMap")).isNull();
    assertThat(CpuProfile.component("com.google.common.collect.ImmutableList")).isNull();
  }

  @Test
  void profilesMergeLargestFirst() {
    Map<String, Long> merged = CpuProfile.merge(List.of(Map.of("a", 1L, "b", 5L), Map.of("a", 7L)));
    assertThat(merged).containsExactly(Map.entry("a", 8L), Map.entry("b", 5L));
  }

  @Test
  void aRecordingChargesThisThreadsWorkToTheBillingCode() throws Exception {
    CpuProfile profile = CpuProfile.start();
    // A second of this thread's CPU, not of the wall clock: a loaded machine may give it far less.
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    long until = cpu.getCurrentThreadCpuTime() + 1_000_000_000L;
    long sink = 0;
    while (cpu.getCurrentThreadCpuTime() < until) {
      for (int i = 0;
          i < 10_000;
          i++) { // Java frames, which JFR samples; the CPU-time read is native
        sink += Long.toString(sink).hashCode();
      }
    }
    Map<String, Long> samples = profile.stop();
    assertThat(sink).isNotZero();
    assertThat(samples).containsKey("billing code");
    assertThat(samples.get("billing code")).isGreaterThan(5L);
  }
}
