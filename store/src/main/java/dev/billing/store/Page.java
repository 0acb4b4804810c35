package dev.billing.store;

import java.util.List;

/**
 * One page of a query.
 *
 * @param nextPageToken opaque and tamper-evident; null on the last page
 */
public record Page<T>(List<T> items, String nextPageToken) {
  public Page {
    items = List.copyOf(items);
  }
}
