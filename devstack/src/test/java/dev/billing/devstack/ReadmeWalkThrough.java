package dev.billing.devstack;

import dev.billing.api.docs.ShellBlock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The README's walk-through as steps a test can run: the fenced {@code bash} block under its
 * heading, read as {@link ShellBlock} reads the docs' blocks (it must set every variable it uses),
 * each {@code curl} command with what the README shows of its answer.
 *
 * <p>The conventions the README keeps so that this reads it, beyond ShellBlock's:
 *
 * <ul>
 *   <li>A command's shown answer gives the status, and every field shown, with its value (a date or
 *       time stands for any date or time of the same form; {@code …} inside a value for any text).
 *   <li>A command's note names what the answer contains: its upper-case words ({@code
 *       PAYMENT_SUCCEEDED}), amounts ({@code 9.99}) and ids are checked.
 *   <li>{@code sub_…} is the subscription the walk-through created (the last {@code subscriptionId}
 *       answered).
 * </ul>
 */
final class ReadmeWalkThrough {
  static final String HEADING = "## Walk-through with the test clock";
  static final String SUBSCRIPTION_PLACEHOLDER = "sub_…";

  /** One curl command: its arguments after variable expansion, the answer shown, the note. */
  record Step(int line, String text, List<String> arguments, ShownAnswer answer, String note) {}

  /** What the README shows of an answer: status (null: any 2xx) and top-level fields. */
  record ShownAnswer(Integer status, Map<String, String> fields) {}

  private static final Pattern FIELD =
      Pattern.compile(
          "\"([A-Za-z0-9_]+)\"\\s*:\\s*(\"(?:[^\"\\\\]|\\\\.)*\"|-?\\d+(?:\\.\\d+)?|true|false|null)");

  private ReadmeWalkThrough() {}

  static Path readme() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.exists(dir.resolve("README.md"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("no README.md above " + Path.of("").toAbsolutePath());
    }
    return dir.resolve("README.md");
  }

  static List<Step> steps(Path readme) throws IOException {
    return steps(Files.readAllLines(readme));
  }

  /** The steps of the first bash block under {@link #HEADING}. */
  static List<Step> steps(List<String> lines) {
    int heading = lines.indexOf(HEADING);
    if (heading < 0) {
      throw new IllegalStateException("README has no \"" + HEADING + "\" section");
    }
    List<ShellBlock> blocks = ShellBlock.in(lines, heading + 1);
    if (blocks.isEmpty()) {
      throw new IllegalStateException("no ```bash block under \"" + HEADING + "\"");
    }
    List<Step> steps = new ArrayList<>();
    for (ShellBlock.Command command : blocks.get(0).commands(ShellBlock.Unset.FAIL)) {
      steps.add(
          new Step(
              command.line(),
              command.text(),
              command.arguments(),
              answer(command.shownAnswer()),
              command.note()));
    }
    return steps;
  }

  private static ShownAnswer answer(ShellBlock.ShownAnswer shown) {
    if (shown == null) {
      return null;
    }
    Map<String, String> fields = new LinkedHashMap<>();
    Matcher field = FIELD.matcher(shown.object());
    while (field.find()) {
      fields.put(field.group(1), field.group(2));
    }
    return new ShownAnswer(shown.status(), fields);
  }
}
