package dev.billing.api.fuzz;

import dev.billing.api.fuzz.Baselines.Field;
import dev.billing.api.fuzz.Baselines.Fixture;
import dev.billing.api.fuzz.Endpoints.Endpoint;
import dev.billing.api.fuzz.FuzzRequest.Credential;
import dev.billing.api.fuzz.FuzzRequest.Kind;
import dev.billing.api.fuzz.FuzzRequest.Mutation;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;

/**
 * Turns a generated request into bytes on the wire, with the JDK's HTTP client: it sends exactly
 * the method, path, body and content type given (a JAX-RS client would normalise some of them).
 */
final class FuzzClient {
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final String base;
  private final String operatorKey;
  private final String ownKey;
  private final String otherKey;

  /**
   * @param ownKey an account key of the fixture's account
   * @param otherKey an account key of another account
   */
  FuzzClient(String base, String operatorKey, String ownKey, String otherKey) {
    this.base = base;
    this.operatorKey = operatorKey;
    this.ownKey = ownKey;
    this.otherKey = otherKey;
  }

  HttpResponse<String> send(
      Endpoint endpoint, Credential credential, Mutation mutation, Fixture fixture)
      throws IOException, InterruptedException {
    String path = endpoint.template();
    for (String name : endpoint.pathParams()) {
      String value =
          mutation.kind() == Kind.PATH && mutation.name().equals(name)
              ? mutation.value()
              : Baselines.pathValue(name, fixture);
      path =
          path.replaceFirst(
              "\\{" + name + "(\\s*:[^}]*)?\\}", Matcher.quoteReplacement(encodePath(value)));
    }
    Map<String, String> query = new LinkedHashMap<>();
    for (String name : endpoint.queryParams()) {
      query.put(name, Baselines.queryValue(name));
    }
    if (mutation.kind() == Kind.QUERY) {
      query.put(mutation.name(), mutation.value());
    }
    StringBuilder uri = new StringBuilder(base).append(path);
    String separator = "?";
    for (Map.Entry<String, String> parameter : query.entrySet()) {
      if (parameter.getValue() != null) {
        uri.append(separator)
            .append(URLEncoder.encode(parameter.getKey(), StandardCharsets.UTF_8))
            .append('=')
            .append(URLEncoder.encode(parameter.getValue(), StandardCharsets.UTF_8));
        separator = "&";
      }
    }
    String method = mutation.kind() == Kind.METHOD ? mutation.name() : endpoint.method();
    String body = renderBody(endpoint, mutation, fixture);
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(uri.toString()))
            .timeout(Duration.ofSeconds(60))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(
                        body.getBytes(StandardCharsets.UTF_8)));
    if (body != null) {
      request.header(
          "Content-Type",
          mutation.kind() == Kind.CONTENT_TYPE ? mutation.name() : "application/json");
    }
    if (mutation.kind() == Kind.HEADER) {
      request.header(mutation.name(), mutation.value());
    }
    String authorization =
        switch (credential.caller()) {
          case OPERATOR -> "Bearer " + operatorKey;
          case OWN_ACCOUNT -> "Bearer " + ownKey;
          case OTHER_ACCOUNT -> "Bearer " + otherKey;
          case GARBAGE -> credential.header();
          case NONE -> null;
        };
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The body sent, or null for a request without one. */
  static String renderBody(Endpoint endpoint, Mutation mutation, Fixture fixture) {
    if (!endpoint.hasBody()) {
      return null;
    }
    if (mutation.kind() == Kind.WHOLE_BODY) {
      return mutation.value();
    }
    List<Field> fields = new ArrayList<>(Baselines.fields(endpoint.bodyType(), fixture));
    switch (mutation.kind()) {
      case BODY_FIELD -> {
        fields.removeIf(f -> f.name().equals(mutation.name()));
        if (mutation.value() != null) {
          fields.add(new Field(mutation.name(), mutation.value()));
        }
      }
      case BODY_DUPLICATE, BODY_EXTRA -> fields.add(new Field(mutation.name(), mutation.value()));
      default -> {}
    }
    return Baselines.render(fields);
  }

  /**
   * Percent-encodes everything but unreserved characters, so any string fits in one path segment.
   */
  private static String encodePath(String value) {
    StringBuilder out = new StringBuilder();
    for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xFF);
      if ((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || "-._~".indexOf(c) >= 0) {
        out.append(c);
      } else {
        out.append('%').append(String.format("%02X", b & 0xFF));
      }
    }
    return out.toString();
  }
}
