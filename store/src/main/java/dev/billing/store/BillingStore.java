package dev.billing.store;

import dev.billing.domain.Period;
import dev.billing.domain.Receipt;
import dev.billing.domain.RecordInput;
import dev.billing.domain.RecordResult;
import dev.billing.domain.Subscription;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The system of record: the seeds' seven access patterns plus the reads the API needs. Every write
 * of a subscription appends its history entry in the same DynamoDB transaction.
 */
public interface BillingStore {

  /**
   * Access pattern 1. Writes a new subscription (conditional on absence) with its history entry.
   * Idempotent: a retry of the same change returns {@code alreadyApplied}.
   */
  RecordResult createSubscription(RecordInput change);

  /**
   * Access pattern 2, on its own: a conditional put of one receipt (it repairs a missing one).
   * Charges write their receipt through {@link #updateSubscription} in the same transaction.
   *
   * @return false when the receipt already existed
   */
  boolean createReceipt(Receipt receipt);

  /**
   * Access pattern 3. Writes the subscription at {@code change.next().version()}, which must be
   * higher than the stored version, together with the history entry and, when present, the period
   * and the receipt: one TransactWriteItems. A retry of a change that already committed returns
   * {@code alreadyApplied}; a write older than what is stored throws {@link StaleWriteException}.
   */
  RecordResult updateSubscription(RecordInput change);

  /** Access pattern 4: GSI-1, subscriptions whose reminder is due on {@code date}. */
  Page<DueReminder> getDueRemindersByDate(LocalDate date, PageRequest page);

  /** Access pattern 5: GSI-2, subscriptions whose payment is due on {@code date}. */
  Page<DuePayment> getDuePaymentsByDate(LocalDate date, PageRequest page);

  /** Access pattern 6. */
  Page<Subscription> getSubscriptionsByAccount(String accountId, PageRequest page);

  /** Access pattern 7: newest first, receipts expired at {@code now} left out. */
  Page<Receipt> getReceiptsByAccount(String accountId, Instant now, PageRequest page);

  /** A strongly consistent read of one subscription. */
  Optional<Subscription> getSubscription(String accountId, String subscriptionId);

  /** One period record, read consistently. */
  Optional<Period> getPeriod(String accountId, String subscriptionId, long cycle);

  /** The periods of one subscription, oldest first. */
  Page<Period> getPeriods(String accountId, String subscriptionId, PageRequest page);

  /** Every period of one subscription, oldest first (one per cycle: a few dozen at most). */
  default List<Period> allPeriods(String accountId, String subscriptionId) {
    List<Period> periods = new ArrayList<>();
    String token = null;
    do {
      Page<Period> page =
          getPeriods(accountId, subscriptionId, new PageRequest(token, PageRequest.MAX_LIMIT));
      periods.addAll(page.items());
      token = page.nextPageToken();
    } while (token != null);
    return periods;
  }

  /** The history of one subscription, oldest first. */
  Page<HistoryEntry> getHistory(String subscriptionId, PageRequest page);
}
