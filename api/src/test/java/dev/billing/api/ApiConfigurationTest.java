package dev.billing.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A bad dueWindow stops the API at start-up, before any subscription is stored with it. */
class ApiConfigurationTest {

  @Test
  void dueWindowIsParsedAndChecked() {
    assertThat(window("PT0S")).isEqualTo(Duration.ZERO);
    assertThat(window("PT20H")).isEqualTo(Duration.ofHours(20));
    assertThatThrownBy(() -> window("six hours"))
        .hasMessageStartingWith("dueWindow must be an ISO-8601 duration");
    assertThatThrownBy(() -> window("PT20H1S"))
        .hasMessage("dueWindow must be whole seconds from PT0S to PT20H, got PT20H1S");
    assertThatThrownBy(() -> window("-PT1H")).hasMessageContaining("from PT0S to PT20H");
    assertThatThrownBy(() -> window("PT0.5S")).hasMessageContaining("from PT0S to PT20H");
  }

  private static Duration window(String value) {
    ApiConfiguration config = new ApiConfiguration();
    config.dueWindow = value;
    return config.dueWindow();
  }
}
