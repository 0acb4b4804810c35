package dev.billing.api.views;

import dev.billing.store.Page;
import java.util.List;
import java.util.function.Function;

/** Every list: items plus the opaque token of the next page (null on the last page). */
public record PageView<T>(List<T> items, String nextPageToken) {

  public static <S, T> PageView<T> of(Page<S> page, Function<S, T> view) {
    return new PageView<>(page.items().stream().map(view).toList(), page.nextPageToken());
  }
}
