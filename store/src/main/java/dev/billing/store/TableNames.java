package dev.billing.store;

/**
 * The names of the two tables, configurable so that several environments can share one AWS account.
 *
 * @param billing the single table of subscriptions, receipts and periods
 * @param history the append-only history of every subscription change
 */
public record TableNames(String billing, String history) {
  public static final String DEFAULT_BILLING = "billing";
  public static final String DEFAULT_HISTORY = "billing-history";

  public TableNames {
    requireName("billing", billing);
    requireName("history", history);
    if (billing.equals(history)) {
      // Both tables key on PK/SK and history SKs could collide with billing SKs.
      throw new IllegalArgumentException(
          "billing and history tables must differ, both are \"" + billing + "\"");
    }
  }

  public static TableNames defaults() {
    return new TableNames(DEFAULT_BILLING, DEFAULT_HISTORY);
  }

  private static void requireName(String which, String name) {
    // DynamoDB's own rule, checked here so a bad configuration fails at start-up, not at first use.
    if (name == null || !name.matches("[a-zA-Z0-9_.-]{3,255}")) {
      throw new IllegalArgumentException(
          which + " table name must be 3 to 255 characters of a-z, A-Z, 0-9, '_', '-' and '.': " + name);
    }
  }
}
