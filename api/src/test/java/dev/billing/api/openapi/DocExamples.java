package dev.billing.api.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The {@code curl} calls of the documentation's {@code bash} blocks (README.md, docs/): method,
 * path, query, body, and the answer a comment right below shows ({@code # 201 {"status":"ACTIVE",
 * …}}, continued on the following comment lines). Read as a shell would: quotes, {@code \} line
 * continuations, {@code NAME='value'} assignments and {@code $NAME}; as the devstack's
 * ReadmeWalkThrough reads the README's walk-through, which this module cannot use. In a shown
 * answer {@code …} stands for whatever the API answers: a field's value, more fields, or part of a
 * string.
 */
final class DocExamples {
  static final String PLACEHOLDER = "…";

  /**
   * One call.
   *
   * @param body the {@code -d} text, or null
   * @param answer what the comment below shows, or null
   */
  record Example(
      String source,
      int line,
      String method,
      String path,
      Map<String, String> query,
      String body,
      Answer answer) {
    String where() {
      return source + ":" + line + " " + method + " " + path;
    }
  }

  /**
   * @param status as shown, 200 when the comment shows none
   * @param shown the object as shown, each {@code …} value a string containing it
   */
  record Answer(int status, JsonNode shown) {}

  private static final Pattern ANSWER =
      Pattern.compile("^(?:(\\d{3})\\s+)?(\\{.*)$", Pattern.DOTALL);
  private static final Pattern ASSIGNMENT =
      Pattern.compile("^([A-Za-z_][A-Za-z0-9_]*)=(.*)$", Pattern.DOTALL);
  private static final Pattern VARIABLE = Pattern.compile("\\$([A-Za-z_][A-Za-z0-9_]*)");

  private DocExamples() {}

  /** The repository's root: the nearest directory above this one with README.md and docs/. */
  static Path repository() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.exists(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("docs"))) {
        return dir;
      }
    }
    throw new IllegalStateException("no README.md and docs/ above " + Path.of("").toAbsolutePath());
  }

  /** Every example of README.md and the Markdown files under docs/. */
  static List<Example> all() {
    Path root = repository();
    List<Example> examples = new ArrayList<>();
    try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
      List<Path> files = new ArrayList<>(List.of(root.resolve("README.md")));
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
      for (Path file : files) {
        examples.addAll(of(root.relativize(file).toString(), Files.readAllLines(file)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return examples;
  }

  /** The examples of one Markdown text's bash blocks. */
  static List<Example> of(String source, List<String> lines) {
    List<Example> examples = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).strip().equals("```bash")) {
        int end = i + 1;
        while (end < lines.size() && !lines.get(end).strip().equals("```")) {
          end++;
        }
        examples.addAll(block(source, lines.subList(i + 1, end), i + 2));
        i = end;
      }
    }
    return examples;
  }

  private static List<Example> block(String source, List<String> block, int firstLine) {
    Map<String, String> variables = new HashMap<>();
    List<Example> examples = new ArrayList<>();
    int i = 0;
    while (i < block.size()) {
      String line = block.get(i);
      if (line.isBlank() || line.strip().startsWith("#")) {
        i++;
        continue;
      }
      int lineNumber = firstLine + i;
      StringBuilder command = new StringBuilder(line);
      while (continues(command.toString()) && i + 1 < block.size()) {
        i++;
        command.append('\n').append(block.get(i));
      }
      i++;
      List<String> comments = new ArrayList<>();
      while (i < block.size() && block.get(i).strip().startsWith("#")) {
        comments.add(block.get(i).strip().substring(1).strip());
        i++;
      }
      List<String> words = words(command.toString(), variables);
      if (words.size() == 1 && ASSIGNMENT.matcher(words.get(0)).matches()) {
        Matcher assignment = ASSIGNMENT.matcher(words.get(0));
        assignment.matches();
        variables.put(assignment.group(1), assignment.group(2));
      } else if (!words.isEmpty() && words.get(0).equals("curl")) {
        Example example = curl(source, lineNumber, words, answer(comments));
        if (example != null) {
          examples.add(example);
        }
      }
    }
    return examples;
  }

  /** A call to the API (localhost:8080), or null for anything else. */
  private static Example curl(String source, int line, List<String> words, Answer answer) {
    String method = null;
    String url = null;
    String body = null;
    for (int k = 1; k < words.size(); k++) {
      String word = words.get(k);
      switch (word) {
        case "-X", "--request" -> method = words.get(++k);
        case "-d", "--data", "--data-raw" -> body = words.get(++k);
        case "-H", "--header", "-o", "-u" -> k++;
        default -> {
          if (word.contains("localhost:8080/")) {
            url = word.substring(word.indexOf("localhost:8080/") + "localhost:8080".length());
          }
        }
      }
    }
    if (url == null) {
      return null;
    }
    Map<String, String> query = new LinkedHashMap<>();
    int q = url.indexOf('?');
    if (q >= 0) {
      for (String pair : url.substring(q + 1).split("&")) {
        int eq = pair.indexOf('=');
        query.put(
            URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8),
            eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
      url = url.substring(0, q);
    }
    if (method == null) {
      method = body == null ? "GET" : "POST";
    }
    return new Example(source, line, method, url, query, body, answer);
  }

  private static Answer answer(List<String> comments) {
    Matcher shown = ANSWER.matcher(String.join(" ", comments));
    if (comments.isEmpty() || !shown.matches()) {
      return null;
    }
    int status = shown.group(1) == null ? 200 : Integer.parseInt(shown.group(1));
    return new Answer(status, lenient(outermostObject(shown.group(2))));
  }

  /**
   * The shown object as JSON: a {@code …} value becomes the string "…"; a {@code …} standing for
   * more members becomes a member of its own, {@code "…<n>":"…"}, which marks the object as shown
   * in part.
   */
  static JsonNode lenient(String shown) {
    StringBuilder out = new StringBuilder();
    Deque<Character> open = new ArrayDeque<>();
    boolean quoted = false;
    int members = 0;
    for (int k = 0; k < shown.length(); k++) {
      char c = shown.charAt(k);
      if (quoted) {
        out.append(c);
        if (c == '\\' && k + 1 < shown.length()) {
          out.append(shown.charAt(++k));
        } else if (c == '"') {
          quoted = false;
        }
        continue;
      }
      if (c == PLACEHOLDER.charAt(0)) {
        String before = out.toString().stripTrailing();
        boolean value = before.endsWith(":") || open.isEmpty() || open.peek() == '[';
        out.append(value ? "" : "\"" + PLACEHOLDER + members++ + "\":")
            .append('"')
            .append(PLACEHOLDER)
            .append('"');
        continue;
      }
      if (c == '{' || c == '[') {
        open.push(c);
      } else if (c == '}' || c == ']') {
        open.poll();
      }
      quoted = c == '"';
      out.append(c);
    }
    try {
      return OpenApiDocument.JSON.readTree(out.toString());
    } catch (IOException e) {
      throw new IllegalStateException("a shown answer that does not read: " + shown, e);
    }
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
    throw new IllegalStateException("an unbalanced answer: " + text);
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

  /** Splits as a shell does: quotes, backslash-newline, $NAME; a # word starts a comment. */
  private static List<String> words(String command, Map<String, String> variables) {
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
        break;
      } else {
        word = word == null ? new StringBuilder() : word;
        if (c == '\'' || c == '"') {
          int close = command.indexOf(c, k + 1);
          if (close < 0) {
            close = command.length(); // an unclosed quote runs to the end, as the shell waits
          }
          String quoted = command.substring(k + 1, close);
          word.append(c == '"' ? expand(quoted, variables) : quoted);
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
    return words;
  }

  private static String expand(String text, Map<String, String> variables) {
    Matcher reference = VARIABLE.matcher(text);
    StringBuilder out = new StringBuilder();
    while (reference.find()) {
      reference.appendReplacement(
          out, Matcher.quoteReplacement(value(reference.group(1), variables)));
    }
    return reference.appendTail(out).toString();
  }

  /** A variable's value, its quotes removed; an unset one (a reader's own key) as written. */
  private static String value(String name, Map<String, String> variables) {
    String value = variables.get(name);
    if (value == null) {
      return "$" + name;
    }
    return value.length() >= 2 && value.startsWith("'") && value.endsWith("'")
        ? value.substring(1, value.length() - 1)
        : value;
  }
}
