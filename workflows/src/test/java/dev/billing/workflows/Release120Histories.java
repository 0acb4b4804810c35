package dev.billing.workflows;

/**
 * The scenarios of 1.2.0's checked-in histories ({@code histories/1.2.0/}): one recorder per change
 * id added after 1.1.0, each a path that changed behind its {@code Workflow.getVersion}. 1.1.0's
 * recorders ({@link Release110Histories}) stay as the record of how its files were made; they are
 * not run again (its files are released and never re-recorded).
 */
final class Release120Histories {
  private Release120Histories() {}

  static void record(HistoryFiles files) throws Exception {
    // No workflow change since 1.1.0 yet.
  }
}
