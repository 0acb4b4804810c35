package dev.billing.bench.temporal;

import java.util.Map;
import java.util.TreeMap;

/**
 * The Temporal Cloud actions of one workflow run, by kind, counted from its history.
 *
 * @param versionMarkers Workflow.getVersion markers: not in Temporal Cloud's list of actions, so
 *     not in {@link #total}; reported so that a reader who bills them can add them
 * @param events the history's length
 */
public record ActionCount(Map<String, Integer> byKind, int total, int versionMarkers, int events) {

  public ActionCount {
    byKind = Map.copyOf(new TreeMap<>(byKind));
  }
}
