package dev.billing.workflows;

import io.temporal.common.SearchAttributeKey;
import java.util.List;

/** Search attributes the subscription workflow maintains, so operators can filter in the Temporal UI. */
public final class BillingSearchAttributes {
  private BillingSearchAttributes() {}

  public static final SearchAttributeKey<String> BILLING_STATUS =
      SearchAttributeKey.forKeyword("BillingStatus");
  public static final SearchAttributeKey<String> ACCOUNT_ID =
      SearchAttributeKey.forKeyword("AccountId");
  public static final SearchAttributeKey<String> SKU = SearchAttributeKey.forKeyword("Sku");

  public static final List<SearchAttributeKey<?>> ALL = List.of(BILLING_STATUS, ACCOUNT_ID, SKU);
}
