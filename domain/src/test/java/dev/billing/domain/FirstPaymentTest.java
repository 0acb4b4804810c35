package dev.billing.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The first payment's rule, with exact dates. */
class FirstPaymentTest {
  private static Subscription sub(SubscriptionStatus status, Instant lastPaymentAt) {
    return new Subscription(
        "acc-1",
        "sub-1",
        "plus",
        Money.parse("9.99", "USD"),
        "ada@example.com",
        new PaymentMethod("pm_card_visa", "visa ****4242"),
        new BillingSchedule(YearMonth.of(2027, 1), 31, Term.MONTHLY, "UTC", 3),
        status,
        1,
        null,
        LocalDate.of(2027, 1, 31),
        null,
        lastPaymentAt,
        Instant.parse("2027-01-01T00:00:00Z"),
        1,
        null);
  }

  @Test
  void only_a_subscription_that_never_paid_has_a_first_payment() {
    Instant paid = Instant.parse("2027-01-31T00:00:00Z");
    assertThat(FirstPayment.applies(sub(SubscriptionStatus.INCOMPLETE, null))).isTrue();
    assertThat(FirstPayment.applies(sub(SubscriptionStatus.TRIALING, null))).isTrue();
    // Created on 1.0.0 (ACTIVE before its first charge): dunned as it always was.
    assertThat(FirstPayment.applies(sub(SubscriptionStatus.ACTIVE, null))).isFalse();
    assertThat(FirstPayment.applies(sub(SubscriptionStatus.ACTIVE, paid))).isFalse();
    assertThat(FirstPayment.applies(sub(SubscriptionStatus.PAST_DUE, paid))).isFalse();
    assertThat(FirstPayment.applies(sub(SubscriptionStatus.TRIALING, paid))).isFalse();
  }

  @Test
  void default_schedule_retries_the_next_day_and_two_days_later_then_expires() {
    DunningPolicy policy = DunningPolicy.DEFAULT;
    LocalDate due = LocalDate.of(2027, 1, 31);
    assertThat(FirstPayment.retryDates(due, policy))
        .containsExactly(LocalDate.of(2027, 2, 1), LocalDate.of(2027, 2, 3));
    assertThat(FirstPayment.expiresOn(due, policy)).isEqualTo(LocalDate.of(2027, 2, 3));
  }

  @Test
  void a_configured_schedule_is_its_own_and_leaves_regular_dunning_alone() {
    DunningPolicy policy =
        new DunningPolicy(List.of(2, 4, 6), DunningPolicy.FinalOutcome.CANCEL, 30, List.of(2));
    LocalDate due = LocalDate.of(2028, 2, 28);
    assertThat(FirstPayment.retryDates(due, policy)).containsExactly(LocalDate.of(2028, 3, 1));
    assertThat(FirstPayment.expiresOn(due, policy)).isEqualTo(LocalDate.of(2028, 3, 1));

    DunningPolicy first = policy.firstPayment();
    assertThat(first.retryAfterDays()).containsExactly(2);
    assertThat(first.finalOutcome()).isEqualTo(DunningPolicy.FinalOutcome.EXPIRE);
    assertThat(first.staleAfterDays()).isZero();
    assertThat(first.expires()).isTrue();
    assertThat(policy.expires()).isFalse();
    assertThat(policy.retryAfterDays()).containsExactly(2, 4, 6);
  }

  @Test
  void no_retry_expires_on_the_due_date() {
    DunningPolicy policy =
        new DunningPolicy(List.of(1), DunningPolicy.FinalOutcome.LEAVE_UNPAID, 90, List.of());
    LocalDate due = LocalDate.of(2027, 3, 15);
    assertThat(FirstPayment.retryDates(due, policy)).isEmpty();
    assertThat(FirstPayment.expiresOn(due, policy)).isEqualTo(due);
  }

  @Test
  void a_policy_recorded_before_the_setting_reads_the_default() {
    DunningPolicy old =
        new DunningPolicy(List.of(1, 3, 5, 7), DunningPolicy.FinalOutcome.LEAVE_UNPAID, 90, null);
    assertThat(old.firstPaymentRetryAfterDays()).containsExactly(1, 3);
  }

  @Test
  void first_payment_retries_are_short() {
    assertThatThrownBy(
            () ->
                new DunningPolicy(
                    List.of(1), DunningPolicy.FinalOutcome.LEAVE_UNPAID, 90, List.of(3, 15)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("firstPaymentRetryAfterDays");
    assertThatThrownBy(
            () ->
                new DunningPolicy(
                    List.of(1), DunningPolicy.FinalOutcome.LEAVE_UNPAID, 90, List.of(3, 3)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
