package dev.billing.workflows;

import static dev.billing.workflows.WorkflowTimeAssert.assertAt;
import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Term;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A message the customer's mail server refuses is recorded on the subscription, once per message.
 */
@Timeout(60)
class EmailBounceTest {

  private static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);

  @Test
  void aBouncedReminderIsRecordedOnTheSubscriptionAndBillingGoesOn() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.mailboxGone();
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-bounce", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-16T00:00:00Z");

      List<RecordInput> bounces =
          t.fake.writes().stream().filter(w -> w.event() == HistoryEvent.EMAIL_BOUNCED).toList();
      assertThat(bounces)
          .singleElement()
          .satisfies(
              b -> {
                assertAt(b.at(), "2028-01-12T00:00:00Z");
                assertThat(b.process()).isEqualTo(Process.NOTIFICATION);
                assertThat(b.next().lifecycle().emailBounce().messageId())
                    .isEqualTo("<reminder.1.sub-bounce@billing>");
                assertThat(b.next().lifecycle().emailBounce().reason())
                    .isEqualTo(FakeBillingActivities.BOUNCE);
              });
      assertThat(t.fake.charges()).hasSize(1);
      assertThat(workflow.state().subscription().lifecycle().emailBounce().messageId())
          .isEqualTo("<reminder.1.sub-bounce@billing>");
    }
  }
}
