package dev.billing.api.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.api.docs.ShellBlock.Command;
import dev.billing.api.docs.ShellBlock.Unset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How {@link ShellBlock} reads a bash block, shell case by shell case. */
class ShellBlockTest {

  @Test
  void quotesAreRemovedAndOnlyDoubleQuotesExpand() {
    List<Command> commands =
        commands(
            "NAME=world",
            "echo 'single $NAME' \"double $NAME\" mixed'a b'\"c\" plain$NAME 'it''s'",
            "echo 'left open",
            "to the end");

    assertThat(commands.get(0).arguments())
        .containsExactly("echo", "single $NAME", "double world", "mixeda bc", "plainworld", "its");
    assertThat(commands.get(1).arguments()).containsExactly("echo", "left open\nto the end");
  }

  @Test
  void aLineEndingInABackslashOrAnOpenQuoteGoesOn() {
    List<Command> commands =
        commands("curl -s \\", "  -d '{\"a\":1,", "       \"b\":2}' localhost:8080/x", "echo next");

    assertThat(commands).hasSize(2);
    assertThat(commands.get(0).line()).isEqualTo(2);
    assertThat(commands.get(0).text()).startsWith("curl -s \\\n").endsWith("localhost:8080/x");
    assertThat(commands.get(0).arguments())
        .containsExactly("curl", "-s", "-d", "{\"a\":1,\n       \"b\":2}", "localhost:8080/x");
    assertThat(commands.get(1).line()).isEqualTo(5);
    assertThat(commands.get(1).arguments()).containsExactly("echo", "next");
  }

  @Test
  void anAssignmentIsNoCommandAndSetsWhatFollowsExpands() {
    List<Command> commands =
        commands(
            "AUTH='Authorization: Bearer dev'",
            "S=localhost:8080/v1/things",
            "curl -s $S/one -H \"$AUTH\"",
            "S=localhost:8080/v1/other",
            "curl -s \"$S\"/two");

    assertThat(commands).extracting(Command::line).containsExactly(4, 6);
    assertThat(commands.get(0).arguments())
        .containsExactly(
            "curl", "-s", "localhost:8080/v1/things/one", "-H", "Authorization: Bearer dev");
    assertThat(commands.get(1).arguments())
        .containsExactly("curl", "-s", "localhost:8080/v1/other/two");
  }

  @Test
  void anUnsetVariableIsAnErrorOrStaysAsWritten() {
    List<String> markdown = markdown("curl -s localhost:8080/x -H \"$API_KEY\" $S/y");
    ShellBlock block = ShellBlock.in(markdown).get(0);

    assertThatThrownBy(() -> block.commands(Unset.FAIL))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("line 2 uses $API_KEY before the block sets it");
    assertThat(block.commands(Unset.AS_WRITTEN).get(0).arguments())
        .containsExactly("curl", "-s", "localhost:8080/x", "-H", "$API_KEY", "$S/y");
  }

  @Test
  void aCommentOnTheCommandsLineIsItsNote() {
    List<Command> commands =
        commands(
            "curl -s 'localhost:8080/#not-a-note' a#b   # CREATED, 9.99 USD",
            "curl -s localhost:8080/x");

    assertThat(commands.get(0).arguments())
        .containsExactly("curl", "-s", "localhost:8080/#not-a-note", "a#b");
    assertThat(commands.get(0).note()).isEqualTo("CREATED, 9.99 USD");
    assertThat(commands.get(1).note()).isNull();
  }

  @Test
  void anAnswerSpansTheCommentLinesBelowUpToItsClosingBrace() {
    List<Command> commands =
        commands(
            "curl -s -X POST localhost:8080/x",
            "# 201 {\"id\":\"sub_…\",\"nested\":{\"a\":\"}\"},",
            "#      \"day\":\"2026-11-30\", …}   (prose {after} the answer)",
            "",
            "# a comment of its own, not an answer",
            "curl -s localhost:8080/y",
            "# {\"status\":\"ACTIVE\"}",
            "curl -s localhost:8080/z",
            "# prose, not an answer");

    Command created = commands.get(0);
    assertThat(created.comments()).hasSize(2);
    assertThat(created.shownAnswer().status()).isEqualTo(201);
    assertThat(created.shownAnswer().object())
        .isEqualTo("{\"id\":\"sub_…\",\"nested\":{\"a\":\"}\"}, \"day\":\"2026-11-30\", …}");
    assertThat(commands.get(1).shownAnswer().status()).isNull();
    assertThat(commands.get(1).shownAnswer().object()).isEqualTo("{\"status\":\"ACTIVE\"}");
    assertThat(commands.get(2).comments()).containsExactly("prose, not an answer");
    assertThat(commands.get(2).shownAnswer()).isNull();
  }

  @Test
  void anUnbalancedAnswerIsAnError() {
    Command command = only("curl -s localhost:8080/x", "# 200 {\"a\":{\"b\":1}");

    assertThatThrownBy(command::shownAnswer)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("line 2: an unbalanced answer");
  }

  @Test
  void everyBashBlockOfTheTextFromTheGivenLineIsRead() {
    List<String> markdown =
        List.of(
            "# Title",
            "```bash",
            "echo one",
            "```",
            "```json",
            "{\"not\":\"bash\"}",
            "```",
            "  ```bash",
            "echo two",
            "  ```",
            "```bash",
            "echo three");

    assertThat(ShellBlock.in(markdown)).extracting(ShellBlock::firstLine).containsExactly(3, 9, 12);
    List<ShellBlock> fromLine5 = ShellBlock.in(markdown, 4);
    assertThat(fromLine5).hasSize(2);
    assertThat(fromLine5.get(1).commands(Unset.FAIL).get(0).arguments())
        .containsExactly("echo", "three");
  }

  private static Command only(String... lines) {
    List<Command> commands = commands(lines);
    assertThat(commands).isNotEmpty();
    return commands.get(0);
  }

  private static List<Command> commands(String... lines) {
    List<ShellBlock> blocks = ShellBlock.in(markdown(lines));
    assertThat(blocks).hasSize(1);
    return blocks.get(0).commands(Unset.FAIL);
  }

  /** A Markdown text of one bash block of these lines; the first of them is line 2. */
  private static List<String> markdown(String... lines) {
    List<String> markdown = new ArrayList<>();
    markdown.add("```bash");
    markdown.add(String.join("\n", lines));
    markdown.add("```");
    return List.of(String.join("\n", markdown).split("\n", -1));
  }
}
