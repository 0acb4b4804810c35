package dev.billing.store;

/**
 * @param token the previous page's nextPageToken, or null for the first page
 * @param limit items per page, 1 to {@link #MAX_LIMIT}
 */
public record PageRequest(String token, int limit) {
  public static final int DEFAULT_LIMIT = 50;
  public static final int MAX_LIMIT = 200;

  public PageRequest {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT);
    }
  }

  public static PageRequest first(int limit) {
    return new PageRequest(null, limit);
  }
}
