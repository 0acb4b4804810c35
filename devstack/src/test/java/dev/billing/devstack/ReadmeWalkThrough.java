package dev.billing.devstack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The README's walk-through as steps a test can run: the fenced {@code bash} block under its
 * heading, read as a shell would (quotes, {@code \} line continuations, {@code NAME='value'}
 * assignments and {@code $NAME}), each {@code curl} command with what the README shows of its
 * answer.
 *
 * <p>The conventions the README keeps so that this reads it:
 *
 * <ul>
 *   <li>A comment right below a command that starts with <code>{</code> or a status and <code>{
 *       </code> (<code># 201 {"status":"ACTIVE", …}</code>, continued on indented comment lines) is
 *       its answer: the status, and every field shown, with its value (a date or time stands for
 *       any date or time of the same form; {@code …} inside a value for any text).
 *   <li>A comment on the command's own line names what the answer contains: its upper-case words
 *       ({@code PAYMENT_SUCCEEDED}), amounts ({@code 9.99}) and ids are checked.
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

  private static final Pattern ANSWER =
      Pattern.compile("^(?:(\\d{3})\\s+)?(\\{.*)$", Pattern.DOTALL);
  private static final Pattern FIELD =
      Pattern.compile(
          "\"([A-Za-z0-9_]+)\"\\s*:\\s*(\"(?:[^\"\\\\]|\\\\.)*\"|-?\\d+(?:\\.\\d+)?|true|false|null)");
  private static final Pattern ASSIGNMENT =
      Pattern.compile("^([A-Za-z_][A-Za-z0-9_]*)=(.*)$", Pattern.DOTALL);

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
    int start = heading + 1;
    while (start < lines.size() && !lines.get(start).equals("```bash")) {
      start++;
    }
    int end = start + 1;
    while (end < lines.size() && !lines.get(end).equals("```")) {
      end++;
    }
    if (end >= lines.size()) {
      throw new IllegalStateException("no closed ```bash block under \"" + HEADING + "\"");
    }
    return parse(lines.subList(start + 1, end), start + 2);
  }

  private static List<Step> parse(List<String> block, int firstLine) {
    Map<String, String> variables = new HashMap<>();
    List<Step> steps = new ArrayList<>();
    int i = 0;
    while (i < block.size()) {
      String line = block.get(i);
      if (line.isBlank() || line.strip().startsWith("#")) {
        i++;
        continue;
      }
      int lineNumber = firstLine + i;
      // A command runs on while a line ends in a backslash or a quote is open.
      StringBuilder command = new StringBuilder(line);
      while (continues(command) && i + 1 < block.size()) {
        i++;
        command.append('\n').append(block.get(i));
      }
      i++;
      Words words = words(command.toString(), variables);
      List<String> comments = new ArrayList<>();
      while (i < block.size() && block.get(i).strip().startsWith("#")) {
        comments.add(block.get(i).strip().substring(1).strip());
        i++;
      }
      if (words.arguments().size() == 1 && ASSIGNMENT.matcher(words.arguments().get(0)).matches()) {
        Matcher assignment = ASSIGNMENT.matcher(words.arguments().get(0));
        assignment.matches();
        variables.put(assignment.group(1), assignment.group(2));
        continue;
      }
      steps.add(
          new Step(
              lineNumber, command.toString(), words.arguments(), answer(comments), words.note()));
    }
    return steps;
  }

  private static ShownAnswer answer(List<String> comments) {
    if (comments.isEmpty()) {
      return null;
    }
    Matcher shown = ANSWER.matcher(String.join(" ", comments));
    if (!shown.matches()) {
      return null;
    }
    String object = outermostObject(shown.group(2));
    Map<String, String> fields = new LinkedHashMap<>();
    Matcher field = FIELD.matcher(object);
    while (field.find()) {
      fields.put(field.group(1), field.group(2));
    }
    return new ShownAnswer(shown.group(1) == null ? null : Integer.valueOf(shown.group(1)), fields);
  }

  /** From the first brace to its match; what follows it is prose. */
  private static String outermostObject(String text) {
    int depth = 0;
    boolean quoted = false;
    for (int k = 0; k < text.length(); k++) {
      char c = text.charAt(k);
      if (c == '"' && (k == 0 || text.charAt(k - 1) != '\\')) {
        quoted = !quoted;
      } else if (!quoted && c == '{') {
        depth++;
      } else if (!quoted && c == '}' && --depth == 0) {
        return text.substring(0, k + 1);
      }
    }
    throw new IllegalStateException("unbalanced answer in the README: " + text);
  }

  private static boolean continues(CharSequence command) {
    String text = command.toString();
    if (text.endsWith("\\")) {
      return true;
    }
    char quote = 0;
    for (int k = 0; k < text.length(); k++) {
      char c = text.charAt(k);
      if (quote == 0 && c == '#' && (k == 0 || Character.isWhitespace(text.charAt(k - 1)))) {
        return false;
      }
      if (quote == 0 && (c == '\'' || c == '"')) {
        quote = c;
      } else if (c == quote) {
        quote = 0;
      }
    }
    return quote != 0;
  }

  private record Words(List<String> arguments, String note) {}

  /**
   * Splits as a shell does: quotes, backslash-newline, $NAME and "$NAME"; a # word starts a
   * comment.
   */
  private static Words words(String command, Map<String, String> variables) {
    List<String> words = new ArrayList<>();
    StringBuilder word = null;
    int k = 0;
    while (k < command.length()) {
      char c = command.charAt(k);
      if (c == '\\' && k + 1 < command.length() && command.charAt(k + 1) == '\n') {
        k += 2;
      } else if (Character.isWhitespace(c)) {
        if (word != null) {
          words.add(word.toString());
          word = null;
        }
        k++;
      } else if (c == '#' && word == null) {
        return new Words(words, command.substring(k + 1).strip());
      } else {
        word = word == null ? new StringBuilder() : word;
        if (c == '\'') {
          int close = command.indexOf('\'', k + 1);
          word.append(command, k + 1, close);
          k = close + 1;
        } else if (c == '"') {
          int close = command.indexOf('"', k + 1);
          word.append(expand(command.substring(k + 1, close), variables));
          k = close + 1;
        } else if (c == '$') {
          int after = k + 1;
          while (after < command.length()
              && (Character.isLetterOrDigit(command.charAt(after))
                  || command.charAt(after) == '_')) {
            after++;
          }
          word.append(value(command.substring(k + 1, after), variables));
          k = after;
        } else {
          word.append(c);
          k++;
        }
      }
    }
    if (word != null) {
      words.add(word.toString());
    }
    return new Words(words, null);
  }

  private static String expand(String text, Map<String, String> variables) {
    Matcher reference = Pattern.compile("\\$([A-Za-z_][A-Za-z0-9_]*)").matcher(text);
    StringBuilder out = new StringBuilder();
    while (reference.find()) {
      reference.appendReplacement(
          out, Matcher.quoteReplacement(value(reference.group(1), variables)));
    }
    return reference.appendTail(out).toString();
  }

  private static String value(String name, Map<String, String> variables) {
    String value = variables.get(name);
    if (value == null) {
      throw new IllegalStateException("the walk-through uses $" + name + " before setting it");
    }
    // NAME='value' keeps its quotes until here.
    return value.length() >= 2 && value.startsWith("'") && value.endsWith("'")
        ? value.substring(1, value.length() - 1)
        : value;
  }
}
