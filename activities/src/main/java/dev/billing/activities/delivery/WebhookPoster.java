package dev.billing.activities.delivery;

import java.io.IOException;
import java.net.URI;
import java.util.Map;

/** Sends one delivery's POST; the HTTP client behind it is a seam for tests. */
public interface WebhookPoster {
  /**
   * @return the HTTP status the endpoint answered
   * @throws IOException when there was no answer (refused, reset, timed out)
   */
  int post(URI url, Map<String, String> headers, byte[] body) throws IOException;
}
