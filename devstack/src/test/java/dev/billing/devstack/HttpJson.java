package dev.billing.devstack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A small JSON-over-HTTP client for the end-to-end tests: they speak to the stack only over HTTP.
 */
final class HttpJson {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern CREATE = Pattern.compile("^/v1/accounts/([^/?]+)/subscriptions$");

  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final String baseUrl;
  private final Set<String> accounts = ConcurrentHashMap.newKeySet();

  HttpJson(String baseUrl) {
    this.baseUrl = baseUrl;
  }

  record Response(int status, JsonNode body) {}

  record TextResponse(int status, String contentType, String body) {}

  /** Every request carries the dev stack's operator key, as the README's curl commands do. */
  static final String AUTHORIZATION = "Bearer " + DevStackSettings.DEFAULT_DEV_API_KEY;

  Response get(String path) throws IOException, InterruptedException {
    return send(
        HttpRequest.newBuilder(URI.create(baseUrl + path))
            .header("Authorization", AUTHORIZATION)
            .GET());
  }

  /** A GET without credentials. */
  Response getAnonymously(String path) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(URI.create(baseUrl + path)).GET());
  }

  /** A non-JSON answer (e.g. a raw message), as text. */
  TextResponse getText(String path) throws IOException, InterruptedException {
    HttpResponse<String> response =
        client.send(
            HttpRequest.newBuilder(URI.create(baseUrl + path))
                .header("Authorization", AUTHORIZATION)
                .GET()
                .timeout(Duration.ofSeconds(120))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return new TextResponse(
        response.statusCode(),
        response.headers().firstValue("Content-Type").orElse(null),
        response.body());
  }

  Response post(String path, String json) throws IOException, InterruptedException {
    Matcher create = CREATE.matcher(path);
    if (create.matches()) {
      accounts.add(create.group(1));
    }
    return send(
        HttpRequest.newBuilder(URI.create(baseUrl + path))
            .header("Authorization", AUTHORIZATION)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json)));
  }

  /** The accounts this client created subscriptions in. */
  Set<String> accounts() {
    return Set.copyOf(accounts);
  }

  private Response send(HttpRequest.Builder request) throws IOException, InterruptedException {
    HttpResponse<String> response =
        client.send(
            request.timeout(Duration.ofSeconds(120)).build(), HttpResponse.BodyHandlers.ofString());
    String body = response.body();
    return new Response(
        response.statusCode(), body == null || body.isBlank() ? null : JSON.readTree(body));
  }
}
