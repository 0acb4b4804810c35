package dev.billing.devstack;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Which Temporal the dev stack runs, from BILLING_DEV_TEMPORAL:
 *
 * <ul>
 *   <li>{@code auto} (default): the real dev server when a {@code temporal} CLI is on the PATH,
 *       otherwise the Java test server;
 *   <li>{@code dev-server}: the real dev server, from the PATH or downloaded by the SDK;
 *   <li>{@code test-server}: the Java test server (the test clock; what the tests use).
 * </ul>
 *
 * @param cli the executable to run; null with DEV_SERVER means "download it"
 */
record DevTemporalChoice(Kind kind, Path cli) {

  enum Kind {
    TEST_SERVER,
    DEV_SERVER
  }

  static final String VARIABLE = "BILLING_DEV_TEMPORAL";

  static DevTemporalChoice of(String mode, String path) {
    String chosen = mode == null || mode.isBlank() ? "auto" : mode.trim().toLowerCase(Locale.ROOT);
    Path cli = findOnPath(path);
    return switch (chosen) {
      case "auto" ->
          cli != null
              ? new DevTemporalChoice(Kind.DEV_SERVER, cli)
              : new DevTemporalChoice(Kind.TEST_SERVER, null);
      case "dev-server" -> new DevTemporalChoice(Kind.DEV_SERVER, cli);
      case "test-server" -> new DevTemporalChoice(Kind.TEST_SERVER, null);
      default ->
          throw new IllegalArgumentException(
              VARIABLE + " must be auto, dev-server or test-server, got \"" + mode + "\"");
    };
  }

  /** The first executable named temporal on the PATH; null when there is none. */
  static Path findOnPath(String path) {
    if (path == null || path.isBlank()) {
      return null;
    }
    boolean windows = File.separatorChar == '\\';
    for (String directory : path.split(File.pathSeparator)) {
      if (directory.isBlank()) {
        continue;
      }
      Path candidate = Path.of(directory, windows ? "temporal.exe" : "temporal");
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return null;
  }

  /** Starts the chosen server. */
  DevTemporal start(DevStackSettings settings) {
    return kind == Kind.TEST_SERVER
        ? new EmbeddedTemporal(settings.temporalPort())
        : new CliDevTemporal(cli, settings.temporalPort(), settings.temporalUiPort());
  }
}
