package dev.billing.bench.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Writes the report in two forms: JSON for machines, Markdown for people. */
public final class ReportWriter {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private ReportWriter() {}

  /** Other work, in cores, above which a run is marked noisy. */
  static final double NOISY_CORES = 0.2;

  /** The run: when, where, with what, and its sections. */
  public record Run(
      Instant startedAt,
      Instant endedAt,
      Map<String, Object> machine,
      Map<String, String> versions,
      Map<String, Object> parameters,
      double loadAtStart,
      double loadAtEnd,
      double busyCoresBefore,
      List<Section> sections) {}

  /**
   * @return the Markdown file written (the JSON one sits next to it)
   */
  public static Path write(Run run, Path directory) throws IOException {
    Files.createDirectories(directory);
    String stamp = run.startedAt().toString().replace(":", "").replaceAll("\\.\\d+", "");
    Path json = directory.resolve("bench-" + stamp + ".json");
    Path markdown = directory.resolve("bench-" + stamp + ".md");
    Files.writeString(json, JSON.writeValueAsString(json(run)));
    Files.writeString(markdown, markdown(run));
    Files.copy(markdown, directory.resolve("latest.md"), StandardCopyOption.REPLACE_EXISTING);
    Files.copy(json, directory.resolve("latest.json"), StandardCopyOption.REPLACE_EXISTING);
    return markdown;
  }

  static ObjectNode json(Run run) {
    ObjectNode root = JSON.createObjectNode();
    root.put("startedAt", run.startedAt().toString());
    root.put("endedAt", run.endedAt().toString());
    root.set("machine", JSON.valueToTree(run.machine()));
    root.put("loadAverageAtStart", run.loadAtStart());
    root.put("loadAverageAtEnd", run.loadAtEnd());
    root.put("busyCoresBeforeRun", run.busyCoresBefore());
    root.set("versions", JSON.valueToTree(run.versions()));
    root.set("parameters", JSON.valueToTree(run.parameters()));
    ArrayNode sections = root.putArray("sections");
    for (Section section : run.sections()) {
      ObjectNode node = sections.addObject();
      node.put("key", section.key());
      node.put("title", section.title());
      node.set("parameters", JSON.valueToTree(section.parameters()));
      ObjectNode figures = node.putObject("figures");
      for (Figure figure : section.figures()) {
        ObjectNode f = figures.putObject(figure.key());
        f.put("label", figure.label());
        f.put("unit", figure.unit());
        f.put("min", figure.value().min());
        f.put("median", figure.value().median());
        f.put("max", figure.value().max());
        f.set("samples", JSON.valueToTree(figure.value().samples()));
      }
      node.set("tables", JSON.valueToTree(section.tables()));
      node.set("notes", JSON.valueToTree(section.notes()));
      node.set("data", section.data());
    }
    return root;
  }

  static String markdown(Run run) {
    StringBuilder md = new StringBuilder();
    md.append("# Billing benchmark report\n\n");
    md.append("Run ").append(run.startedAt()).append(" to ").append(run.endedAt()).append(".\n\n");
    md.append("## Machine\n\n| | |\n|---|---|\n");
    run.machine()
        .forEach((k, v) -> md.append("| ").append(k).append(" | ").append(v).append(" |\n"));
    md.append(
            "| load average (1 min) at start / end (both count the benchmark's own threads and a run just before) | ")
        .append(number(run.loadAtStart()))
        .append(" / ")
        .append(number(run.loadAtEnd()))
        .append(" |\n");
    md.append("| cores busy with other work during the 3 s before the run started anything | ")
        .append(number(run.busyCoresBefore()))
        .append(" |\n\n");
    if (run.busyCoresBefore() > NOISY_CORES) {
      md.append(
          "> **Noisy run**: other work kept this machine busy when the benchmark started."
              + " Treat absolute figures as lower bounds and compare ratios measured in the same trial;"
              + " rerun on a quiet machine for absolute numbers.\n\n");
    }
    md.append("## Versions\n\n| | |\n|---|---|\n");
    run.versions()
        .forEach((k, v) -> md.append("| ").append(k).append(" | ").append(v).append(" |\n"));
    md.append("\n## Parameters\n\n| | |\n|---|---|\n");
    run.parameters()
        .forEach((k, v) -> md.append("| ").append(k).append(" | ").append(v).append(" |\n"));
    for (Section section : run.sections()) {
      md.append("\n## ").append(section.title()).append("\n\n");
      if (!section.parameters().isEmpty()) {
        md.append("Parameters: ");
        section
            .parameters()
            .forEach((k, v) -> md.append('`').append(k).append('=').append(v).append("` "));
        md.append("\n\n");
      }
      if (!section.figures().isEmpty()) {
        md.append(
            "| figure | unit | min | median | max | trials |\n|---|---|---:|---:|---:|---|\n");
        for (Figure figure : section.figures()) {
          Summary v = figure.value();
          md.append("| ")
              .append(figure.label())
              .append(" | ")
              .append(figure.unit())
              .append(" | ")
              .append(number(v.min()))
              .append(" | **")
              .append(number(v.median()))
              .append("** | ")
              .append(number(v.max()))
              .append(" | ")
              .append(samples(v.samples()))
              .append(" |\n");
        }
        md.append('\n');
      }
      for (Section.Table table : section.tables()) {
        md.append("**")
            .append(table.title())
            .append("**\n\n| ")
            .append(String.join(" | ", table.header()))
            .append(" |\n|")
            .append("---|".repeat(table.header().size()))
            .append('\n');
        for (List<String> row : table.rows()) {
          md.append("| ").append(String.join(" | ", row)).append(" |\n");
        }
        md.append('\n');
      }
      for (String note : section.notes()) {
        md.append(note).append("\n\n");
      }
    }
    return md.toString();
  }

  private static String samples(List<Double> samples) {
    if (samples.size() > 8) {
      return samples.size() + " samples";
    }
    return String.join(", ", samples.stream().map(ReportWriter::number).toList());
  }

  /** Three significant figures or so; integers stay integers. */
  public static String number(double value) {
    double abs = Math.abs(value);
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return Double.toString(value);
    }
    if (abs >= 100 || value == Math.rint(value) && abs < 1e15) {
      return String.format(Locale.ROOT, "%,.0f", value);
    }
    if (abs >= 10) {
      return String.format(Locale.ROOT, "%.1f", value);
    }
    if (abs >= 1) {
      return String.format(Locale.ROOT, "%.2f", value);
    }
    if (abs >= 0.001) {
      return String.format(Locale.ROOT, "%.4f", value);
    }
    return String.format(Locale.ROOT, "%.3g", value);
  }
}
