package dev.billing.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.util.List;
import org.junit.jupiter.api.Test;

/** How {@link ReadmeWalkThrough} reads a walk-through block (no stack needed). */
class ReadmeWalkThroughParseTest {

  private static final List<String> README =
      List.of(
          "# Title",
          ReadmeWalkThrough.HEADING,
          "",
          "```bash",
          "# A comment, then an assignment",
          "AUTH='Authorization: Bearer dev'",
          "",
          "curl -s -X POST localhost:8080/v1/things -H \"$AUTH\" \\",
          "  -d '{\"a\":1,",
          "       \"b\":\"two words\"}'",
          "# 201 {\"id\":\"sub_…\",\"status\":\"ACTIVE\",",
          "#      \"day\":\"2026-11-30\", …}      (prose after the answer)",
          "",
          "curl -s localhost:8080/v1/things/sub_…/history -H \"$AUTH\"   # CREATED, 9.99 USD",
          "```",
          "```bash",
          "curl -s localhost:8080/not-the-walk-through",
          "```");

  @Test
  void reads_commands_answers_and_notes() {
    List<ReadmeWalkThrough.Step> steps = ReadmeWalkThrough.steps(README);

    assertThat(steps).hasSize(2);
    ReadmeWalkThrough.Step create = steps.get(0);
    assertThat(create.line()).isEqualTo(8);
    assertThat(create.arguments())
        .containsExactly(
            "curl",
            "-s",
            "-X",
            "POST",
            "localhost:8080/v1/things",
            "-H",
            "Authorization: Bearer dev",
            "-d",
            "{\"a\":1,\n       \"b\":\"two words\"}");
    assertThat(create.answer().status()).isEqualTo(201);
    assertThat(create.answer().fields())
        .containsExactly(
            entry("id", "\"sub_…\""),
            entry("status", "\"ACTIVE\""),
            entry("day", "\"2026-11-30\""));
    assertThat(create.note()).isNull();

    ReadmeWalkThrough.Step history = steps.get(1);
    assertThat(history.arguments())
        .containsExactly(
            "curl",
            "-s",
            "localhost:8080/v1/things/sub_…/history",
            "-H",
            "Authorization: Bearer dev");
    assertThat(history.answer()).isNull();
    assertThat(history.note()).isEqualTo("CREATED, 9.99 USD");
  }

  @Test
  void the_readme_walk_through_creates_a_subscription_and_shows_its_answer() throws Exception {
    List<ReadmeWalkThrough.Step> steps = ReadmeWalkThrough.steps(ReadmeWalkThrough.readme());

    assertThat(steps)
        .anySatisfy(
            step -> {
              assertThat(step.answer()).isNotNull();
              assertThat(step.answer().status()).isEqualTo(201);
              assertThat(step.answer().fields())
                  .containsKeys("subscriptionId", "status", "nextPaymentDate");
            });
  }
}
