package dev.billing.api.docs;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A fenced {@code bash} block of a Markdown document, read as a shell would: quotes, {@code \} line
 * continuations, {@code NAME='value'} assignments and {@code $NAME}. The documentation's checks
 * (api's OpenAPI examples, devstack's README walk-through) read their commands through this one
 * reading, so the docs keep one set of conventions:
 *
 * <ul>
 *   <li>A comment on a command's own line is its note ({@code curl … # CREATED, 9.99 USD}).
 *   <li>The comment lines right below a command belong to it; when they start with <code>{</code>
 *       or a status and <code>{</code> ({@code # 201 {"status":"ACTIVE", …}}, continued on the
 *       following comment lines) they show its answer, up to the brace that closes the first one
 *       (what follows is prose).
 * </ul>
 */
public final class ShellBlock {

  /** What {@code $NAME} becomes when the block has not set NAME. */
  public enum Unset {
    /** Kept as written: a variable the reader sets (an API key of their own). */
    AS_WRITTEN,
    /** An error: the block is meant to run on its own. */
    FAIL
  }

  /**
   * One command of the block; an assignment is none, it sets a variable for the commands after it.
   *
   * @param line the command's first line in the Markdown document (1-based)
   * @param text the command as written, continuation lines included
   * @param arguments its words after quote removal and expansion
   * @param note the comment on its own line, or null
   * @param comments the comment lines right below it, each without its {@code #}
   */
  public record Command(
      int line, String text, List<String> arguments, String note, List<String> comments) {

    /** The answer its comments show, or null when they show none. */
    public ShownAnswer shownAnswer() {
      Matcher shown = ANSWER.matcher(String.join(" ", comments));
      if (comments.isEmpty() || !shown.matches()) {
        return null;
      }
      Integer status = shown.group(1) == null ? null : Integer.valueOf(shown.group(1));
      return new ShownAnswer(status, outermostObject(shown.group(2), line));
    }
  }

  /**
   * @param status the status shown, or null when the comment shows none
   * @param object the shown object's text, from its first brace to the one that closes it
   */
  public record ShownAnswer(Integer status, String object) {}

  private static final Pattern ANSWER =
      Pattern.compile("^(?:(\\d{3})\\s+)?(\\{.*)$", Pattern.DOTALL);
  private static final Pattern ASSIGNMENT =
      Pattern.compile("^([A-Za-z_][A-Za-z0-9_]*)=(.*)$", Pattern.DOTALL);
  private static final Pattern VARIABLE = Pattern.compile("\\$([A-Za-z_][A-Za-z0-9_]*)");
  private static final String FENCE = "```";

  private final int firstLine;
  private final List<String> lines;

  private ShellBlock(int firstLine, List<String> lines) {
    this.firstLine = firstLine;
    this.lines = List.copyOf(lines);
  }

  /** The bash blocks of a Markdown text. */
  public static List<ShellBlock> in(List<String> markdown) {
    return in(markdown, 0);
  }

  /**
   * The bash blocks of a Markdown text from line index {@code from} on; a block left open runs to
   * the end, as a Markdown reader shows it.
   */
  public static List<ShellBlock> in(List<String> markdown, int from) {
    List<ShellBlock> blocks = new ArrayList<>();
    for (int i = from; i < markdown.size(); i++) {
      if (markdown.get(i).strip().equals(FENCE + "bash")) {
        int end = i + 1;
        while (end < markdown.size() && !markdown.get(end).strip().equals(FENCE)) {
          end++;
        }
        blocks.add(new ShellBlock(i + 2, markdown.subList(i + 1, end)));
        i = end;
      }
    }
    return blocks;
  }

  /** The block's first line in its document (1-based), the one after the opening fence. */
  public int firstLine() {
    return firstLine;
  }

  /** The block's commands in order, each expanded with the assignments above it. */
  public List<Command> commands(Unset unset) {
    Map<String, String> variables = new HashMap<>();
    List<Command> commands = new ArrayList<>();
    int i = 0;
    while (i < lines.size()) {
      String line = lines.get(i);
      if (line.isBlank() || isComment(line)) {
        i++;
        continue;
      }
      int lineNumber = firstLine + i;
      StringBuilder text = new StringBuilder(line);
      while (continues(text.toString()) && i + 1 < lines.size()) {
        i++;
        text.append('\n').append(lines.get(i));
      }
      i++;
      List<String> comments = new ArrayList<>();
      while (i < lines.size() && isComment(lines.get(i))) {
        comments.add(lines.get(i).strip().substring(1).strip());
        i++;
      }
      Words words = new Words(text.toString(), variables, unset, lineNumber);
      List<String> arguments = words.split();
      Matcher assignment =
          arguments.size() == 1 ? ASSIGNMENT.matcher(arguments.get(0)) : ASSIGNMENT.matcher("");
      if (assignment.matches()) {
        variables.put(assignment.group(1), assignment.group(2));
      } else {
        commands.add(
            new Command(
                lineNumber,
                text.toString(),
                List.copyOf(arguments),
                words.note,
                List.copyOf(comments)));
      }
    }
    return commands;
  }

  private static boolean isComment(String line) {
    return line.strip().startsWith("#");
  }

  /** Whether a command goes on: a line ending in a backslash, or a quote still open. */
  private static boolean continues(String text) {
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

  /** From the first brace to its match. */
  private static String outermostObject(String text, int line) {
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
    throw new IllegalStateException("line " + line + ": an unbalanced answer: " + text);
  }

  /** One command's splitting into words; a {@code #} starting a word starts its note. */
  private static final class Words {
    private final String command;
    private final Map<String, String> variables;
    private final Unset unset;
    private final int line;
    private String note;

    Words(String command, Map<String, String> variables, Unset unset, int line) {
      this.command = command;
      this.variables = variables;
      this.unset = unset;
      this.line = line;
    }

    List<String> split() {
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
          note = command.substring(k + 1).strip();
          return words;
        } else {
          word = word == null ? new StringBuilder() : word;
          if (c == '\'' || c == '"') {
            k = quoted(k, word);
          } else if (c == '$') {
            k = variable(k, word);
          } else {
            word.append(c);
            k++;
          }
        }
      }
      if (word != null) {
        words.add(word.toString());
      }
      return words;
    }

    /**
     * Appends the quoted text at k, expanded in double quotes; an unclosed quote runs to the end.
     */
    private int quoted(int k, StringBuilder word) {
      char quote = command.charAt(k);
      int close = command.indexOf(quote, k + 1);
      if (close < 0) {
        close = command.length();
      }
      String text = command.substring(k + 1, close);
      word.append(quote == '"' ? expand(text) : text);
      return close + 1;
    }

    /** Appends the value of the {@code $NAME} at k. */
    private int variable(int k, StringBuilder word) {
      int after = k + 1;
      while (after < command.length()
          && (Character.isLetterOrDigit(command.charAt(after)) || command.charAt(after) == '_')) {
        after++;
      }
      word.append(value(command.substring(k + 1, after)));
      return after;
    }

    private String expand(String text) {
      Matcher reference = VARIABLE.matcher(text);
      StringBuilder out = new StringBuilder();
      while (reference.find()) {
        reference.appendReplacement(out, Matcher.quoteReplacement(value(reference.group(1))));
      }
      return reference.appendTail(out).toString();
    }

    private String value(String name) {
      String value = variables.get(name);
      if (value == null) {
        if (unset == Unset.FAIL) {
          throw new IllegalStateException(
              "line " + line + " uses $" + name + " before the block sets it");
        }
        return "$" + name;
      }
      // An assignment's word keeps quotes nested in other quotes (NAME="'v'"); the value has none.
      return value.length() >= 2 && value.startsWith("'") && value.endsWith("'")
          ? value.substring(1, value.length() - 1)
          : value;
    }
  }
}
