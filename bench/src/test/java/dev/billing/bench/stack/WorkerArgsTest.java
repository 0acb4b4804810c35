package dev.billing.bench.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkerArgsTest {

  @Test
  void formatAndParseRoundTrip() {
    Map<String, String> options = new LinkedHashMap<>();
    WorkerArgs.NAMES.forEach(name -> options.put(name, "v-" + name));
    options.put("dynamo", "http://localhost:8000");
    assertThat(WorkerArgs.parse(WorkerArgs.format(options))).isEqualTo(options);
  }

  @Test
  void everyOptionIsRequired() {
    assertThatThrownBy(() -> WorkerArgs.parse(new String[] {"--temporal=localhost:7233"}))
        .hasMessage("missing --dynamo");
    assertThatThrownBy(() -> WorkerArgs.parse(new String[] {"temporal"}))
        .hasMessageContaining("expected --name=value");
  }
}
