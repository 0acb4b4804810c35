package dev.billing.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Runs the README's walk-through against the dev stack, command by command and in order, through
 * Java's HTTP client (no curl needed), and checks each answer against what the README shows
 * (conventions: {@link ReadmeWalkThrough}). A field renamed in the code, or a command that stopped
 * working, fails here before a newcomer meets it.
 */
class ReadmeWalkThroughTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Work a jump released runs in real time after it: a GET's answer may take a moment to show it.
   */
  private static final Duration SETTLING = Duration.ofSeconds(60);

  private static final Pattern DATE_OR_TIME =
      Pattern.compile("\\d{4}-\\d{2}-\\d{2}([T ][0-9:.]+Z?)?");
  private static final Pattern NOTE_WORD =
      Pattern.compile(
          "[A-Z][A-Z0-9_]{2,}|\\d+\\.\\d+|\\S*"
              + Pattern.quote(ReadmeWalkThrough.SUBSCRIPTION_PLACEHOLDER)
              + "\\S*");

  @RegisterExtension static final RunningDevStack STACK = new RunningDevStack();

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private String subscriptionId;

  @Test
  void the_walk_through_runs_as_written() throws Exception {
    List<ReadmeWalkThrough.Step> steps = ReadmeWalkThrough.steps(ReadmeWalkThrough.readme());
    assertThat(steps).as("curl commands of the walk-through").hasSizeGreaterThan(5);
    for (ReadmeWalkThrough.Step step : steps) {
      run(step);
    }
  }

  private void run(ReadmeWalkThrough.Step step) throws Exception {
    String where = "README.md line " + step.line() + ": " + step.text();
    HttpRequest request = request(step, where);
    long deadline = System.nanoTime() + SETTLING.toNanos();
    while (true) {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      List<String> problems = check(step, response);
      boolean retry = request.method().equals("GET") && System.nanoTime() < deadline;
      if (problems.isEmpty() || !retry) {
        assertThat(problems)
            .as(where + "\nanswered " + response.statusCode() + " " + response.body())
            .isEmpty();
        remember(response);
        return;
      }
      Thread.sleep(250);
    }
  }

  /** Builds the request a curl command describes; any option not understood fails the test. */
  private HttpRequest request(ReadmeWalkThrough.Step step, String where) {
    List<String> args = step.arguments();
    assertThat(args).as(where).isNotEmpty();
    assertThat(args.get(0)).as(where + ": the walk-through runs curl commands").isEqualTo("curl");
    String method = null;
    String body = null;
    String url = null;
    List<String[]> headers = new ArrayList<>();
    for (int k = 1; k < args.size(); k++) {
      String arg = substitute(args.get(k));
      switch (arg) {
        case "-s" -> {}
        case "-X" -> method = args.get(++k);
        case "-H" -> {
          String header = substitute(args.get(++k));
          int colon = header.indexOf(':');
          headers.add(
              new String[] {
                header.substring(0, colon).strip(), header.substring(colon + 1).strip()
              });
        }
        // A body may name the dev stack's webhook receiver: where this stack runs it.
        case "-d" ->
            body =
                substitute(args.get(++k))
                    .replace("http://localhost:8082/webhooks", STACK.stack().webhookReceiverUrl());
        default -> {
          assertThat(arg)
              .as(where + ": a curl option this test does not run")
              .doesNotStartWith("-");
          assertThat(url).as(where + ": one URL").isNull();
          url = arg;
        }
      }
    }
    assertThat(url).as(where + ": the URL").isNotNull();
    String base = "localhost:8080";
    assertThat(url).as(where + ": the dev stack's API").startsWith(base);
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(
                URI.create(
                    "http://localhost:"
                        + STACK.settings().apiPort()
                        + url.substring(base.length())))
            .timeout(Duration.ofMinutes(2));
    headers.forEach(header -> builder.header(header[0], header[1]));
    method = method != null ? method : body != null ? "POST" : "GET";
    return builder
        .method(
            method,
            body == null
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body))
        .build();
  }

  private List<String> check(ReadmeWalkThrough.Step step, HttpResponse<String> response) {
    List<String> problems = new ArrayList<>();
    ReadmeWalkThrough.ShownAnswer shown = step.answer();
    int status = response.statusCode();
    if (shown != null && shown.status() != null ? status != shown.status() : status / 100 != 2) {
      problems.add(
          "status "
              + status
              + ", the README shows "
              + (shown != null && shown.status() != null ? shown.status() : "a success"));
    }
    if (shown != null) {
      JsonNode body = json(response.body());
      for (Map.Entry<String, String> field : shown.fields().entrySet()) {
        JsonNode actual = body == null ? null : body.get(field.getKey());
        if (actual == null) {
          problems.add("no field \"" + field.getKey() + "\", which the README shows");
        } else if (!matches(field.getValue(), actual)) {
          problems.add(
              "\"" + field.getKey() + "\" is " + actual + ", the README shows " + field.getValue());
        }
      }
    }
    if (step.note() != null) {
      Matcher word = NOTE_WORD.matcher(step.note());
      while (word.find()) {
        String expected = substitute(word.group());
        if (!response.body().contains(expected)) {
          problems.add("the answer has no \"" + expected + "\", which the README's note names");
        }
      }
    }
    return problems;
  }

  private static boolean matches(String shown, JsonNode actual) {
    if (!shown.startsWith("\"")) {
      return actual.isValueNode() && !actual.isTextual() && actual.asText().equals(shown);
    }
    String text = shown.substring(1, shown.length() - 1);
    if (!actual.isTextual()) {
      return false;
    }
    if (DATE_OR_TIME.matcher(text).matches()) {
      return actual.asText().matches(text.replaceAll("\\d+", "\\\\d+").replace(".", "\\."));
    }
    StringBuilder pattern = new StringBuilder();
    for (String part : text.split("…", -1)) {
      pattern.append(pattern.isEmpty() ? "" : ".*").append(Pattern.quote(part));
    }
    return actual.asText().matches(pattern.toString());
  }

  private void remember(HttpResponse<String> response) {
    JsonNode body = json(response.body());
    if (body != null && body.hasNonNull("subscriptionId")) {
      subscriptionId = body.get("subscriptionId").asText();
    }
  }

  private String substitute(String text) {
    if (!text.contains(ReadmeWalkThrough.SUBSCRIPTION_PLACEHOLDER)) {
      return text;
    }
    assertThat(subscriptionId)
        .as("a command uses sub_… before the walk-through created one")
        .isNotNull();
    return text.replace(ReadmeWalkThrough.SUBSCRIPTION_PLACEHOLDER, subscriptionId);
  }

  private static JsonNode json(String body) {
    try {
      JsonNode node = body == null || body.isBlank() ? null : JSON.readTree(body);
      return node != null && node.isObject() ? node : null;
    } catch (Exception notJson) {
      return null;
    }
  }
}
