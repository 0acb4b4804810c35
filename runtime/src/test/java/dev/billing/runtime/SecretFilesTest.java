package dev.billing.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecretFilesTest {

  @TempDir Path dir;

  @Test
  void aVariableMayComeFromAFile() throws Exception {
    Path secret = Files.writeString(dir.resolve("stripe"), "whsec_from_file\n");
    Map<String, String> env = Map.of("STRIPE_WEBHOOK_SECRET_FILE", secret.toString(), "OTHER", "x");

    assertThat(SecretFiles.lookup(env, "STRIPE_WEBHOOK_SECRET")).isEqualTo("whsec_from_file");
    assertThat(SecretFiles.resolve(env))
        .containsEntry("STRIPE_WEBHOOK_SECRET", "whsec_from_file")
        .containsEntry("OTHER", "x");
    assertThat(ConfigSources.substitutor(env).replace("secret: ${STRIPE_WEBHOOK_SECRET:-}"))
        .isEqualTo("secret: whsec_from_file");
  }

  @Test
  void theVariableItselfWins() throws Exception {
    Path secret = Files.writeString(dir.resolve("key"), "from-file");
    Map<String, String> env = Map.of("KEY", "from-env", "KEY_FILE", secret.toString());

    assertThat(SecretFiles.lookup(env, "KEY")).isEqualTo("from-env");
  }

  @Test
  void neitherGivesTheDefault() {
    assertThat(SecretFiles.lookup(Map.of(), "KEY")).isNull();
    assertThat(ConfigSources.substitutor(Map.of()).replace("k: ${KEY:-none}")).isEqualTo("k: none");
  }

  @Test
  void anotherProgramsFileVariableDoesNotStopTheProcess() {
    Map<String, String> env =
        Map.of("TF_CLI_CONFIG_FILE", dir.resolve("missing").toString(), "OTHER", "x");

    assertThat(SecretFiles.resolve(env))
        .containsEntry("OTHER", "x")
        .doesNotContainKey("TF_CLI_CONFIG");
  }

  @Test
  void anUnreadableFileNamesThePathNotAValue() {
    Map<String, String> env = Map.of("KEY_FILE", dir.resolve("missing").toString());

    assertThatThrownBy(() -> SecretFiles.lookup(env, "KEY"))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("KEY_FILE");
  }
}
