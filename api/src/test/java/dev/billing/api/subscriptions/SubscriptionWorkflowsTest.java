package dev.billing.api.subscriptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.api.errors.ApiProblem;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.BillingSearchAttributes;
import dev.billing.workflows.CancelRequest;
import io.temporal.testing.TestWorkflowEnvironment;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** With no worker polling, the API neither hangs nor invites a duplicating retry. */
class SubscriptionWorkflowsTest {

  private TestWorkflowEnvironment env;
  private SubscriptionWorkflows workflows;

  @BeforeEach
  void start() {
    env = TestWorkflowEnvironment.newInstance();
    for (var key : BillingSearchAttributes.ALL) {
      env.registerSearchAttribute(key.getName(), key.getValueType());
    }
    env.start();
    workflows =
        new SubscriptionWorkflows(
            env.getWorkflowClient(), "queue-without-workers", Duration.ofMillis(300));
  }

  @AfterEach
  void stop() {
    env.close();
  }

  @Test
  void aCreateThatIsNotRecordedInTimeIsReportedAsNotRecordedYet() {
    long started = System.nanoTime();

    assertThatThrownBy(() -> workflows.create(subscription("sub-slow")))
        .isInstanceOfSatisfying(
            NotRecordedYet.class, e -> assertThat(e.subscriptionId()).isEqualTo("sub-slow"));
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
  }

  @Test
  void aCancelThatIsNotAnsweredInTimeIsA503() {
    assertThatThrownBy(() -> workflows.create(subscription("sub-waiting")))
        .isInstanceOf(NotRecordedYet.class);

    assertThatThrownBy(() -> workflows.cancel("sub-waiting", new CancelRequest(null, "api")))
        .isInstanceOfSatisfying(ApiProblem.class, p -> assertThat(p.status()).isEqualTo(503));
  }

  private static Subscription subscription(String id) {
    BillingSchedule schedule =
        BillingSchedule.startingOnOrAfter(LocalDate.of(2030, 1, 15), 15, Term.MONTHLY, "UTC", 3);
    return new Subscription(
        "acc-1",
        id,
        "pro",
        Money.parse("9.99", "USD"),
        "ada@example.com",
        new PaymentMethod("pm_card_visa", "Visa •••• 4242"),
        schedule,
        SubscriptionStatus.ACTIVE,
        1,
        schedule.reminderDate(1),
        schedule.dueDate(1),
        null,
        null,
        Instant.parse("2030-01-01T00:00:00Z"),
        0,
        "hash");
  }
}
