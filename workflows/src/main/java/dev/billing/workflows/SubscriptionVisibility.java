package dev.billing.workflows;

import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import io.temporal.common.SearchAttributeUpdate;
import io.temporal.common.SearchAttributes;
import io.temporal.workflow.ContinueAsNewOptions;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What operators see of a subscription workflow in the Temporal UI without opening it: its search
 * attributes ({@link BillingSearchAttributes}) and a memo with a one-line customer-facing summary.
 *
 * <p>Cost rule: nothing here adds a workflow command. A run starts with its attributes and memo
 * (set by whoever starts it: the API, a reconciliation restart, or continue-as-new, whose command
 * carries them), and a change within a run rides on the upsert the status change makes anyway. So
 * the happy-path cycle stays at its six actions.
 */
public final class SubscriptionVisibility {
  private SubscriptionVisibility() {}

  /** The memo field with the summary. */
  public static final String MEMO_SUMMARY = "summary";

  /**
   * The attributes a run of {@code subscription} starts with.
   *
   * @param pastDueSince when it became PAST_DUE, if known; ignored unless it is PAST_DUE
   */
  public static SearchAttributes startAttributes(Subscription subscription, Instant pastDueSince) {
    SearchAttributes.Builder attributes =
        SearchAttributes.newBuilder()
            .set(BillingSearchAttributes.BILLING_STATUS, subscription.status().name())
            .set(BillingSearchAttributes.ACCOUNT_ID, subscription.accountId())
            .set(BillingSearchAttributes.SKU, subscription.sku());
    OffsetDateTime next = nextPaymentAt(subscription);
    if (next != null) {
      attributes.set(BillingSearchAttributes.NEXT_PAYMENT_DATE, next);
    }
    if (subscription.status() == SubscriptionStatus.PAST_DUE && pastDueSince != null) {
      attributes.set(BillingSearchAttributes.PAST_DUE_SINCE, utc(pastDueSince));
    }
    return attributes.build();
  }

  public static Map<String, Object> memo(Subscription subscription) {
    return Map.of(MEMO_SUMMARY, summary(subscription));
  }

  /**
   * "PRO-MONTHLY: 9.99 USD monthly on day 15 (UTC), ACTIVE, next payment 2028-02-15, Visa ••••
   * 4242". No e-mail address or token: the memo is visible to everyone who can see the namespace.
   */
  public static String summary(Subscription s) {
    LocalDate next = nextPaymentDate(s);
    return s.sku()
        + ": "
        + s.price()
        + " "
        + s.schedule().term().name().toLowerCase()
        + " on day "
        + s.schedule().billingDay()
        + " ("
        + s.schedule().timeZone()
        + "), "
        + s.status()
        + (next == null ? ", nothing due" : ", next payment " + next)
        + ", "
        + s.paymentMethod().mask();
  }

  /**
   * The instant the payment the subscription works towards is due; null when nothing is due. A
   * subscription not recorded yet (version 0) has no dates filled in: its schedule gives the date.
   */
  public static OffsetDateTime nextPaymentAt(Subscription s) {
    LocalDate date = nextPaymentDate(s);
    return date == null ? null : utc(s.schedule().startOfDay(date));
  }

  private static LocalDate nextPaymentDate(Subscription s) {
    if (s.nextPaymentDate() != null) {
      return s.nextPaymentDate();
    }
    return s.version() == 0 && !s.status().isTerminal() ? s.schedule().dueDate(s.cycle()) : null;
  }

  /**
   * Workflow code only. The continue-as-new options of the next run of {@code next}: every current
   * attribute carried over (an explicit set replaces the server's copy), with the next payment and
   * the status of the new run, and a fresh memo. Part of the continue-as-new command: no action.
   */
  public static ContinueAsNewOptions continueAsNew(Subscription next) {
    SearchAttributes.Builder attributes =
        SearchAttributes.newBuilder(Workflow.getTypedSearchAttributes())
            .set(BillingSearchAttributes.BILLING_STATUS, next.status().name());
    OffsetDateTime due = nextPaymentAt(next);
    if (due != null) {
      attributes.set(BillingSearchAttributes.NEXT_PAYMENT_DATE, due);
    } else {
      attributes.unset(BillingSearchAttributes.NEXT_PAYMENT_DATE);
    }
    if (next.status() != SubscriptionStatus.PAST_DUE) {
      attributes.unset(BillingSearchAttributes.PAST_DUE_SINCE);
    }
    return ContinueAsNewOptions.newBuilder()
        .setTypedSearchAttributes(attributes.build())
        .setMemo(memo(next))
        .build();
  }

  /**
   * Workflow code only. What an upsert made anyway (a status change, the identity at creation)
   * should also carry: the past-due start (set on entering PAST_DUE, unset on leaving it) and the
   * next payment. Empty when {@code planned} is empty: these never cause an upsert on their own.
   */
  public static List<SearchAttributeUpdate<?>> withStatusChange(
      List<SearchAttributeUpdate<?>> planned,
      SearchAttributes existing,
      Subscription current,
      Instant now) {
    if (planned.isEmpty()) {
      return planned;
    }
    List<SearchAttributeUpdate<?>> updates = new ArrayList<>(planned);
    if (current.status() == SubscriptionStatus.PAST_DUE) {
      if (existing.get(BillingSearchAttributes.PAST_DUE_SINCE) == null) {
        updates.add(BillingSearchAttributes.PAST_DUE_SINCE.valueSet(utc(now)));
      }
    } else if (existing.get(BillingSearchAttributes.PAST_DUE_SINCE) != null) {
      updates.add(BillingSearchAttributes.PAST_DUE_SINCE.valueUnset());
    }
    OffsetDateTime due = nextPaymentAt(current);
    OffsetDateTime shown = existing.get(BillingSearchAttributes.NEXT_PAYMENT_DATE);
    if (due == null && shown != null) {
      updates.add(BillingSearchAttributes.NEXT_PAYMENT_DATE.valueUnset());
    } else if (due != null && (shown == null || !due.isEqual(shown))) {
      updates.add(BillingSearchAttributes.NEXT_PAYMENT_DATE.valueSet(due));
    }
    return updates;
  }

  static OffsetDateTime utc(Instant instant) {
    return OffsetDateTime.ofInstant(Objects.requireNonNull(instant, "instant"), ZoneOffset.UTC);
  }
}
