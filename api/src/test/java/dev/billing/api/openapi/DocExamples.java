package dev.billing.api.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.docs.ShellBlock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The {@code curl} calls of the documentation's {@code bash} blocks (README.md, docs/): method,
 * path, query, body, and the answer a comment right below shows ({@code # 201 {"status":"ACTIVE",
 * …}}), as {@link ShellBlock} reads them; a variable the docs leave to the reader ({@code $AUTH})
 * stays as written. In a shown answer {@code …} stands for whatever the API answers: a field's
 * value, more fields, or part of a string.
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
    for (ShellBlock block : ShellBlock.in(lines)) {
      for (ShellBlock.Command command : block.commands(ShellBlock.Unset.AS_WRITTEN)) {
        List<String> words = command.arguments();
        if (!words.isEmpty() && words.get(0).equals("curl")) {
          Example example = curl(source, command.line(), words, answer(command));
          if (example != null) {
            examples.add(example);
          }
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

  private static Answer answer(ShellBlock.Command command) {
    ShellBlock.ShownAnswer shown = command.shownAnswer();
    if (shown == null) {
      return null;
    }
    return new Answer(shown.status() == null ? 200 : shown.status(), lenient(shown.object()));
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
}
