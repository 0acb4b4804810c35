package dev.billing.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code ./billing dev}'s first screen, as a newcomer sees it: the process started as the launcher
 * starts it, on free ports; nothing is printed above the banner, and the banner says where the API,
 * the dev key, the test clock and the outbox are.
 */
class DevStackFirstScreenTest {

  @Test
  void the_banner_is_the_first_thing_printed() throws Exception {
    int api = EndToEnd.freePort();
    ProcessBuilder launch =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                DevStack.class.getName())
            .redirectErrorStream(true);
    launch.environment().remove(DevLogging.LEVEL_VARIABLE);
    launch.environment().put("BILLING_PORT", Integer.toString(api));
    launch.environment().put("BILLING_ADMIN_PORT", Integer.toString(EndToEnd.freePort()));
    launch.environment().put("TEMPORAL_PORT", Integer.toString(EndToEnd.freePort()));
    launch.environment().put("DYNAMODB_PORT", Integer.toString(EndToEnd.freePort()));
    launch.environment().put(DevTemporalChoice.VARIABLE, "test-server");
    Process stack = launch.start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(stack.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null && !line.startsWith("Billing dev stack is up")) {
        lines.add(line);
      }
      assertThat(line)
          .as("the banner; printed before it:\n%s", String.join("\n", lines))
          .isNotNull();
      List<String> banner = new ArrayList<>(List.of(line));
      while ((line = out.readLine()) != null && !line.isEmpty()) {
        banner.add(line);
      }
      assertThat(lines).as("printed before the banner").containsExactly("");
      assertThat(String.join("\n", banner))
          .contains(
              "http://localhost:" + api + "/v1",
              "Bearer dev",
              "/v1/dev/clock/advance",
              "/v1/dev/outbox");
    } finally {
      stack.destroy();
      if (!stack.waitFor(30, TimeUnit.SECONDS)) {
        stack.destroyForcibly();
      }
    }
  }
}
