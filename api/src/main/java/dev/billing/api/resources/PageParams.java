package dev.billing.api.resources;

import dev.billing.api.errors.ApiProblem;
import dev.billing.store.PageRequest;

/**
 * The query parameters of every list. Taken as strings and parsed here: Jersey answers 404 for an
 * unparsable query parameter, a client deserves a 400 naming it.
 */
public final class PageParams {
  private PageParams() {}

  public static PageRequest of(String pageToken, String limit) {
    int size = PageRequest.DEFAULT_LIMIT;
    if (limit != null) {
      try {
        size = Integer.parseInt(limit.strip());
      } catch (NumberFormatException e) {
        size = -1;
      }
      if (size < 1 || size > PageRequest.MAX_LIMIT) {
        throw ApiProblem.invalid(
            "limit", "limit must be an integer between 1 and " + PageRequest.MAX_LIMIT);
      }
    }
    String token = pageToken == null || pageToken.isBlank() ? null : pageToken.strip();
    return new PageRequest(token, size);
  }
}
