package dev.billing.store;

/**
 * The names of the store's tables, configurable so that several environments can share one AWS
 * account.
 *
 * @param billing the single table of subscriptions, receipts and periods
 * @param history the append-only history of every subscription change
 * @param paymentEvents the gateway events received by the webhooks, each stored once
 */
public record TableNames(String billing, String history, String paymentEvents) {
  public static final String DEFAULT_BILLING = "billing";
  public static final String DEFAULT_HISTORY = "billing-history";
  public static final String DEFAULT_PAYMENT_EVENTS = "payment-events";

  public TableNames {
    requireName("billing", billing);
    requireName("history", history);
    requireName("paymentEvents", paymentEvents);
    if (billing.equals(history)) {
      // Both tables key on PK/SK and history SKs could collide with billing SKs.
      throw new IllegalArgumentException(
          "billing and history tables must differ, both are \"" + billing + "\"");
    }
    if (paymentEvents.equals(billing) || paymentEvents.equals(history)) {
      // Its key schema differs (PK only): sharing a table would fail at creation or at first write.
      throw new IllegalArgumentException(
          "the payment events table must differ from the other two, it is \""
              + paymentEvents
              + "\"");
    }
  }

  /** The tables of the first release, with payment events in their default table. */
  public TableNames(String billing, String history) {
    this(billing, history, DEFAULT_PAYMENT_EVENTS);
  }

  public static TableNames defaults() {
    return new TableNames(DEFAULT_BILLING, DEFAULT_HISTORY, DEFAULT_PAYMENT_EVENTS);
  }

  private static void requireName(String which, String name) {
    // DynamoDB's own rule, checked here so a bad configuration fails at start-up, not at first use.
    if (name == null || !name.matches("[a-zA-Z0-9_.-]{3,255}")) {
      throw new IllegalArgumentException(
          which
              + " table name must be 3 to 255 characters of a-z, A-Z, 0-9, '_', '-' and '.': "
              + name);
    }
  }
}
