package dev.billing.activities.delivery;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * {@link java.net.http.HttpClient}: connect within 5 s, an answer within 10 s (well inside the
 * activity's 30 s, so the attempt is still recorded), never a redirect (one could lead to an
 * address the check refused), the answer's body discarded unread.
 */
public final class HttpWebhookPoster implements WebhookPoster {
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

  private final HttpClient client =
      HttpClient.newBuilder()
          .connectTimeout(CONNECT_TIMEOUT)
          .followRedirects(HttpClient.Redirect.NEVER)
          .build();

  @Override
  public int post(URI url, Map<String, String> headers, byte[] body) throws IOException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(url)
            .timeout(REQUEST_TIMEOUT)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    headers.forEach(request::header);
    try {
      return client.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }
}
