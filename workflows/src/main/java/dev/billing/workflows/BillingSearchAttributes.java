package dev.billing.workflows;

import io.temporal.common.SearchAttributeKey;
import java.time.OffsetDateTime;
import java.util.List;

/**
 * Search attributes the subscription workflow maintains, so operators can filter in the Temporal
 * UI.
 *
 * <p>NextPaymentDate and PastDueSince are Datetime, not Keyword: "everything billing tomorrow" and
 * "past due for more than a week" are range questions ({@code BETWEEN}, {@code <}), which
 * visibility answers for Datetime on every store (SQL and Elasticsearch) while a Keyword only
 * matches exactly. A due date is a calendar date in the subscription's own zone; the attribute
 * holds the instant that day starts there (when the charge fires), in UTC, so one query covers
 * every zone.
 */
public final class BillingSearchAttributes {
  private BillingSearchAttributes() {}

  public static final SearchAttributeKey<String> BILLING_STATUS =
      SearchAttributeKey.forKeyword("BillingStatus");
  public static final SearchAttributeKey<String> ACCOUNT_ID =
      SearchAttributeKey.forKeyword("AccountId");
  public static final SearchAttributeKey<String> SKU = SearchAttributeKey.forKeyword("Sku");

  /** When the payment this run works towards is due; unset when nothing is due (cancelled). */
  public static final SearchAttributeKey<OffsetDateTime> NEXT_PAYMENT_DATE =
      SearchAttributeKey.forOffsetDateTime("NextPaymentDate");

  /** Since when the subscription is PAST_DUE (workflow time of the failure); unset otherwise. */
  public static final SearchAttributeKey<OffsetDateTime> PAST_DUE_SINCE =
      SearchAttributeKey.forOffsetDateTime("PastDueSince");

  public static final List<SearchAttributeKey<?>> ALL =
      List.of(BILLING_STATUS, ACCOUNT_ID, SKU, NEXT_PAYMENT_DATE, PAST_DUE_SINCE);
}
