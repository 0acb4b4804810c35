package dev.billing.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which Temporal ./billing dev runs. Starting the real dev server needs a temporal CLI (or the
 * internet), which no test has here: the choice is tested, and the fallback, the Java test server,
 * is what every other dev stack test runs on.
 */
class DevTemporalChoiceTest {

  @Test
  @DisabledOnOs(OS.WINDOWS)
  void autoTakesTheTemporalCliWhenThePathHasOne(@TempDir Path dir) throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path cli =
        Files.createFile(
            bin.resolve("temporal"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
    Path notExecutable = Files.createDirectories(dir.resolve("other"));
    Files.createFile(notExecutable.resolve("temporal"));
    String path =
        notExecutable + File.pathSeparator + dir.resolve("empty") + File.pathSeparator + bin;

    assertThat(DevTemporalChoice.of(null, path))
        .isEqualTo(new DevTemporalChoice(DevTemporalChoice.Kind.DEV_SERVER, cli));
    assertThat(DevTemporalChoice.of("test-server", path))
        .isEqualTo(new DevTemporalChoice(DevTemporalChoice.Kind.TEST_SERVER, null));
  }

  @Test
  void withoutACliItFallsBackToTheTestServerUnlessTheDevServerIsAskedFor(@TempDir Path dir) {
    assertThat(DevTemporalChoice.of("auto", dir.toString()).kind())
        .isEqualTo(DevTemporalChoice.Kind.TEST_SERVER);
    assertThat(DevTemporalChoice.of(" ", null).kind())
        .isEqualTo(DevTemporalChoice.Kind.TEST_SERVER);
    // Asked for explicitly: the SDK downloads the CLI (null path).
    assertThat(DevTemporalChoice.of("Dev-Server", dir.toString()))
        .isEqualTo(new DevTemporalChoice(DevTemporalChoice.Kind.DEV_SERVER, null));
    assertThatThrownBy(() -> DevTemporalChoice.of("docker", null))
        .hasMessage("BILLING_DEV_TEMPORAL must be auto, dev-server or test-server, got \"docker\"");
  }
}
