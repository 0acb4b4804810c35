package dev.billing.api.openapi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The error statuses a resource method raises itself, read from its source: the {@code ApiProblem}
 * it throws or answers in its body and in the private methods of its class it calls. Problems
 * raised in other classes (the workflow client, the validators, the reconciliation runs, the
 * exception mappers) are not followed: their statuses are not derived here.
 */
final class ThrownStatuses {
  private static final Map<String, String> FACTORIES =
      Map.of(
          "invalid", "400",
          "unauthorized", "401",
          "forbidden", "403",
          "notFound", "404",
          "conflict", "409",
          "tooLarge", "413",
          "unavailable", "503");
  private static final Pattern FACTORY =
      Pattern.compile("\\bApiProblem\\.(" + String.join("|", FACTORIES.keySet()) + ")\\(");
  private static final Pattern CONSTRUCTED =
      Pattern.compile("\\bnew ApiProblem\\(\\s*([1-5][0-9]{2})");
  private static final Pattern CALL = Pattern.compile("\\b([a-z][A-Za-z0-9]*)\\s*\\(");

  private ThrownStatuses() {}

  /** The statuses {@code method} of {@code type} raises itself. */
  static Set<String> of(Class<?> type, String method) {
    String source = source(type);
    Set<String> statuses = new TreeSet<>();
    scan(source, method, statuses, new HashSet<>());
    return statuses;
  }

  private static void scan(String source, String method, Set<String> statuses, Set<String> seen) {
    if (!seen.add(method)) {
      return;
    }
    for (String body : bodies(source, method)) {
      Matcher factory = FACTORY.matcher(body);
      while (factory.find()) {
        statuses.add(FACTORIES.get(factory.group(1)));
      }
      Matcher constructed = CONSTRUCTED.matcher(body);
      while (constructed.find()) {
        statuses.add(constructed.group(1));
      }
      Matcher call = CALL.matcher(body);
      while (call.find()) {
        if (isPrivateMethod(source, call.group(1))) {
          scan(source, call.group(1), statuses, seen);
        }
      }
    }
  }

  private static boolean isPrivateMethod(String source, String name) {
    return Pattern.compile("\\bprivate\\s+(?:static\\s+)?[\\w<>\\[\\],.? ]+\\s" + name + "\\s*\\(")
        .matcher(source)
        .find();
  }

  /** The bodies of every declaration of {@code method} (overloads included). */
  private static List<String> bodies(String source, String method) {
    Matcher declaration =
        Pattern.compile(
                "(?m)^\\s*(?:public|private|protected|static|final|\\s)*[\\w<>\\[\\],.? ]+\\s"
                    + method
                    + "\\s*\\(")
            .matcher(source);
    List<String> bodies = new ArrayList<>();
    while (declaration.find()) {
      int open = source.indexOf('{', declaration.end());
      int semicolon = source.indexOf(';', declaration.end());
      if (open < 0
          || (semicolon >= 0
              && semicolon < open
              && !hasParensOpen(source, declaration.end(), semicolon))) {
        continue; // a call or an abstract declaration, not a body
      }
      bodies.add(source.substring(open, matchingBrace(source, open) + 1));
    }
    return bodies;
  }

  /** Whether a ';' between {@code from} and {@code to} sits inside the declaration's parameters. */
  private static boolean hasParensOpen(String source, int from, int to) {
    int depth = 1;
    for (int i = from; i < to; i++) {
      char c = source.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      }
    }
    return depth > 0;
  }

  private static int matchingBrace(String source, int open) {
    int depth = 0;
    char quote = 0;
    for (int i = open; i < source.length(); i++) {
      char c = source.charAt(i);
      if (quote != 0) {
        if (c == '\\') {
          i++;
        } else if (c == quote) {
          quote = 0;
        }
      } else if (source.startsWith("//", i) || source.startsWith("/*", i)) {
        // A comment's apostrophe opens no quote.
        int end =
            source.startsWith("//", i) ? source.indexOf('\n', i) : source.indexOf("*/", i) + 1;
        if (end <= i) {
          break;
        }
        i = end;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '{') {
        depth++;
      } else if (c == '}' && --depth == 0) {
        return i;
      }
    }
    throw new IllegalStateException("unbalanced braces after " + open);
  }

  /** The class's source, read from the module's src/main/java (tests run in the module). */
  private static String source(Class<?> type) {
    Path file = Path.of("src/main/java", type.getName().replace('.', '/') + ".java");
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("the source of " + type.getName() + " is not at " + file, e);
    }
  }
}
