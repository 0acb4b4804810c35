package dev.billing.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportWriterTest {

  @Test
  void theLatestFilesAreThisRunsReport(@TempDir Path directory) throws Exception {
    Section section = new Section("peak", "1. Billing-day peak");
    section.figure("rate", "a rate", "cycles/s", Summary.of(1, 2, 3));
    ReportWriter.Run run =
        new ReportWriter.Run(
            Instant.parse("2026-11-22T10:00:00.123Z"),
            Instant.parse("2026-11-22T10:05:00Z"),
            Map.of("cores", 2),
            Map.of("billing", "abc"),
            Map.of("peak", 200),
            0.5,
            1.5,
            0.1,
            List.of(section));

    Path markdown = ReportWriter.write(run, directory);

    assertThat(markdown).hasFileName("bench-2026-11-22T100000Z.md");
    assertThat(Files.readString(markdown))
        .isEqualTo(ReportWriter.markdown(run))
        .contains("| a rate |");
    assertThat(directory.resolve("latest.md")).hasSameTextualContentAs(markdown);
    assertThat(directory.resolve("latest.json"))
        .hasSameTextualContentAs(directory.resolve("bench-2026-11-22T100000Z.json"));
  }
}
