package dev.billing.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Subscription;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.Call;
import io.temporal.api.enums.v1.EventType;
import io.temporal.client.WorkflowExecutionDescription;
import io.temporal.client.WorkflowStub;
import io.temporal.common.SearchAttributes;
import java.time.OffsetDateTime;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The search attributes and memo operators filter and read in the Temporal UI, and what they cost.
 */
@Timeout(60)
class SubscriptionVisibilityTest {

  /** Due on the 15th, Paris time (the day starts at 23:00 UTC the day before in winter). */
  private static final BillingSchedule PARIS_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "Europe/Paris", 3);

  @Test
  void nextPaymentDateAndMemoMoveWithEveryCycleWithoutAnUpsert() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      Subscription requested = BillingTestEnvironment.requested("sub-vis", PARIS_15TH, "9.99");
      // As the API starts it: attributes and memo in the start request.
      t.start(
              requested,
              SubscriptionVisibility.startAttributes(requested, null),
              SubscriptionVisibility.memo(requested))
          .created();

      WorkflowExecutionDescription first = t.untyped("sub-vis").describe();
      assertThat(first.getTypedSearchAttributes().get(BillingSearchAttributes.NEXT_PAYMENT_DATE))
          .isEqualTo(OffsetDateTime.parse("2028-01-14T23:00:00Z"));
      assertThat((String) first.getMemo(SubscriptionVisibility.MEMO_SUMMARY, String.class))
          .isEqualTo(
              "PRO-MONTHLY: 9.99 USD monthly on day 15 (Europe/Paris), ACTIVE, next payment 2028-01-15,"
                  + " Visa •••• 4242");

      t.runUntil("2028-02-20T00:00:00Z");

      WorkflowExecutionDescription third = t.untyped("sub-vis").describe();
      SearchAttributes attributes = third.getTypedSearchAttributes();
      assertThat(attributes.get(BillingSearchAttributes.NEXT_PAYMENT_DATE))
          .isEqualTo(OffsetDateTime.parse("2028-03-14T23:00:00Z"));
      assertThat(attributes.get(BillingSearchAttributes.BILLING_STATUS)).isEqualTo("ACTIVE");
      assertThat(attributes.get(BillingSearchAttributes.ACCOUNT_ID)).isEqualTo("acc-7");
      assertThat(attributes.get(BillingSearchAttributes.SKU)).isEqualTo("PRO-MONTHLY");
      assertThat(attributes.containsKey(BillingSearchAttributes.PAST_DUE_SINCE)).isFalse();
      assertThat((String) third.getMemo(SubscriptionVisibility.MEMO_SUMMARY, String.class))
          .endsWith("ACTIVE, next payment 2028-03-15, Visa •••• 4242");

      List<String> runs = t.fake.charges().stream().map(Call::runId).distinct().toList();
      assertThat(
              t.count(
                  t.history("sub-vis", runs.get(0)),
                  EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES))
          .as("all set at start")
          .isZero();
      assertThat(
              t.count(
                  t.history("sub-vis", runs.get(1)),
                  EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES))
          .isZero();
    }
  }

  @Test
  void pastDueSinceIsSetOnTheDeclineAndClearedOnRecovery() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.declineCycle(1);
      Subscription requested = BillingTestEnvironment.requested("sub-late", PARIS_15TH, "9.99");
      t.start(
              requested,
              SubscriptionVisibility.startAttributes(requested, null),
              SubscriptionVisibility.memo(requested))
          .created();

      t.runUntil("2028-01-20T00:00:00Z");
      SearchAttributes late = t.untyped("sub-late").describe().getTypedSearchAttributes();
      assertThat(late.get(BillingSearchAttributes.BILLING_STATUS)).isEqualTo("PAST_DUE");
      // The workflow time of the declined first attempt.
      WorkflowTimeAssert.assertAt(
          late.get(BillingSearchAttributes.PAST_DUE_SINCE).toInstant(), "2028-01-14T23:00:00Z");
      assertThat(late.get(BillingSearchAttributes.NEXT_PAYMENT_DATE))
          .isEqualTo(OffsetDateTime.parse("2028-02-14T23:00:00Z"));

      // Every retry of cycle 1 is declined; cycle 2 is paid and brings it back to ACTIVE.
      t.runUntil("2028-02-20T00:00:00Z");
      SearchAttributes back = t.untyped("sub-late").describe().getTypedSearchAttributes();
      assertThat(back.get(BillingSearchAttributes.BILLING_STATUS)).isEqualTo("ACTIVE");
      assertThat(back.containsKey(BillingSearchAttributes.PAST_DUE_SINCE)).isFalse();
      assertThat(back.get(BillingSearchAttributes.NEXT_PAYMENT_DATE))
          .isEqualTo(OffsetDateTime.parse("2028-03-14T23:00:00Z"));
    }
  }

  @Test
  void cancellingClearsTheNextPaymentInTheSameUpsertAsTheStatus() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      Subscription requested = BillingTestEnvironment.requested("sub-end", PARIS_15TH, "9.99");
      SubscriptionWorkflow workflow =
          t.start(
              requested,
              SubscriptionVisibility.startAttributes(requested, null),
              SubscriptionVisibility.memo(requested));
      workflow.created();
      workflow.cancel(new CancelRequest("moving away", "user:ada"));
      WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);

      SearchAttributes ended = t.untyped("sub-end").describe().getTypedSearchAttributes();
      assertThat(ended.get(BillingSearchAttributes.BILLING_STATUS)).isEqualTo("CANCELLED");
      assertThat(ended.containsKey(BillingSearchAttributes.NEXT_PAYMENT_DATE)).isFalse();
      String run = t.untyped("sub-end").describe().getExecution().getRunId();
      assertThat(
              t.count(
                  t.history("sub-end", run),
                  EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES))
          .isEqualTo(1);
    }
  }
}
