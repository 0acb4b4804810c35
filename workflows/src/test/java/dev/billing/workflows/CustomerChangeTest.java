package dev.billing.workflows;

import static dev.billing.workflows.Refusals.assertRefused;
import static dev.billing.workflows.WorkflowTimeAssert.assertAllAt;
import static dev.billing.workflows.WorkflowTimeAssert.assertAt;
import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.Call;
import dev.billing.workflows.activities.ChargeInput;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent.AttributesCase;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * New customer details through the {@code changeCustomer} update: a time zone moves the next charge
 * to its due date in that zone with no period skipped or billed twice, an email clears a recorded
 * bounce, and later messages go to the new address in the new locale.
 */
@Timeout(60)
class CustomerChangeTest {

  private static Money usd(String amount) {
    return Money.parse(amount, "USD");
  }

  private static List<RecordInput> events(BillingTestEnvironment t, HistoryEvent event) {
    return t.fake.writes().stream().filter(w -> w.event() == event).toList();
  }

  /**
   * Honolulu (UTC-10) to Kiritimati (UTC+14): Feb 15 starts a whole day earlier, at 10:00 UTC on
   * Feb 14, which has passed when the change lands at 12:00 UTC. Cycle 2 is charged at once, and
   * not again at Honolulu's Feb 15; cycle 3 is due at Kiritimati's midnight of Mar 15.
   */
  @Test
  void movingEastPastTheDueInstantChargesTheCycleNowAndOnlyOnce() {
    BillingSchedule honolulu =
        new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "Pacific/Honolulu", 3);
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-east", honolulu, "9.99"));
      t.runUntil("2028-02-14T12:00:00Z");
      assertThat(t.fake.charges()).hasSize(1);
      assertThat(t.fake.reminders()).hasSize(2);

      SubscriptionState moved =
          workflow.changeCustomer(new CustomerChange(null, null, "Pacific/Kiritimati", "user:ada"));

      assertThat(moved.subscription().schedule().timeZone()).isEqualTo("Pacific/Kiritimati");
      assertThat(moved.subscription().cycle()).isEqualTo(2);
      assertThat(moved.subscription().nextPaymentDate()).isEqualTo(LocalDate.of(2028, 2, 15));
      assertThat(moved.lastOutcome())
          .isEqualTo(
              "time zone Pacific/Honolulu -> Pacific/Kiritimati; cycle 2 due 2028-02-15 at"
                  + " 2028-02-14T10:00:00Z (was 2028-02-15T10:00:00Z), past: charged now");
      t.runUntil("2028-03-16T00:00:00Z");

      List<Call<ChargeInput>> charges = t.fake.charges();
      assertThat(charges).extracting(c -> c.input().cycle()).containsExactly(1L, 2L, 3L);
      assertThat(charges)
          .extracting(c -> c.input().amount())
          .containsExactly(usd("9.99"), usd("9.99"), usd("9.99"));
      assertAllAt(
          charges.stream().map(Call::startedAt).toList(),
          List.of("2028-01-15T10:00:00Z", "2028-02-14T12:00:00Z", "2028-03-14T10:00:00Z"));
      // Cycle 3's reminder: Mar 12 in Kiritimati.
      assertAt(t.fake.reminders().get(2).startedAt(), "2028-03-11T10:00:00Z");
      assertThat(t.fake.reminders()).hasSize(3);
      RecordInput changed = events(t, HistoryEvent.CUSTOMER_CHANGED).get(0);
      assertThat(changed.actor()).isEqualTo("user:ada");
      assertThat(changed.next().lifecycle().balance()).isNull();
      assertThat(versionMarkers(t, charges.get(1).runId())).containsExactly("customer-change");
    }
  }

  /**
   * Paris to New York: Feb 15 starts six hours later. Nothing is charged at Paris's midnight, cycle
   * 2 is charged at New York's, and the reminder already sent for it is not sent again. (New York
   * moves to daylight time at 02:00 on Mar 12, after cycle 3's midnight reminder.)
   */
  @Test
  void movingWestWaitsForTheNewZonesMidnightAndDoesNotRemindTwice() {
    BillingSchedule paris =
        new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "Europe/Paris", 3);
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-west", paris, "9.99"));
      t.runUntil("2028-02-13T00:00:00Z");
      assertThat(t.fake.reminders()).hasSize(2);

      workflow.changeCustomer(new CustomerChange(null, null, "America/New_York", "user:ada"));
      t.runUntil("2028-02-15T04:00:00Z");
      assertThat(t.fake.charges()).hasSize(1);
      t.runUntil("2028-03-16T00:00:00Z");

      assertThat(t.fake.charges()).extracting(c -> c.input().cycle()).containsExactly(1L, 2L, 3L);
      assertAllAt(
          t.fake.charges().stream().map(Call::startedAt).toList(),
          List.of("2028-01-14T23:00:00Z", "2028-02-15T05:00:00Z", "2028-03-15T04:00:00Z"));
      assertAllAt(
          t.fake.reminders().stream().map(Call::startedAt).toList(),
          List.of("2028-01-11T23:00:00Z", "2028-02-11T23:00:00Z", "2028-03-12T05:00:00Z"));
    }
  }

  /** Cycle 2's reminder, Feb 12 in Honolulu, began at 10:00 UTC on Feb 11 in Kiritimati. */
  @Test
  void aReminderWhoseNewInstantHasPassedGoesOutAtOnce() {
    BillingSchedule honolulu =
        new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "Pacific/Honolulu", 3);
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-remind", honolulu, "9.99"));
      t.runUntil("2028-02-11T12:00:00Z");
      assertThat(t.fake.reminders()).hasSize(1);

      workflow.changeCustomer(new CustomerChange(null, null, "Pacific/Kiritimati", "user:ada"));
      t.runUntil("2028-02-15T00:00:00Z");

      assertAllAt(
          t.fake.reminders().stream().map(Call::startedAt).toList(),
          List.of("2028-01-12T10:00:00Z", "2028-02-11T12:00:00Z"));
      assertAllAt(
          t.fake.charges().stream().map(Call::startedAt).toList(),
          List.of("2028-01-15T10:00:00Z", "2028-02-14T10:00:00Z"));
    }
  }

  @Test
  void aNewEmailClearsTheBounceAndLaterMessagesGoThereInTheNewLocale() {
    BillingSchedule utc = new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.mailboxGone(BillingTestEnvironment.EMAIL);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-mail", utc, "9.99"));
      t.runUntil("2028-01-20T00:00:00Z");
      assertThat(workflow.state().subscription().lifecycle().emailBounce()).isNotNull();

      SubscriptionState changed =
          workflow.changeCustomer(
              new CustomerChange("ada@new.example", "fr-FR", null, "user:ada", "mail-1"));

      assertThat(changed.subscription().email()).isEqualTo("ada@new.example");
      assertThat(changed.subscription().locale()).isEqualTo("fr-FR");
      assertThat(changed.subscription().lifecycle().emailBounce()).isNull();
      assertThat(changed.lastOutcome())
          .isEqualTo(
              "email changed, bounce of <reminder.1.sub-mail@billing> cleared; locale en-US ->"
                  + " fr-FR");
      // The same request again is answered as the first time; another one that changes nothing
      // is refused.
      assertThat(
              workflow
                  .changeCustomer(
                      new CustomerChange("ada@new.example", "fr-FR", null, "user:ada", "mail-1"))
                  .subscription()
                  .version())
          .isEqualTo(changed.subscription().version());
      assertRefused(
          () ->
              workflow.changeCustomer(
                  new CustomerChange("ada@new.example", null, null, "user:ada", "mail-2")),
          UpdateRejections.TRANSITION_NOT_ALLOWED,
          "nothing to change: the subscription already has this email");
      t.runUntil("2028-02-16T00:00:00Z");

      assertThat(t.fake.reminders()).hasSize(2);
      assertThat(t.fake.reminders().get(1).input().email()).isEqualTo("ada@new.example");
      assertThat(t.fake.reminders().get(1).input().record().next().locale()).isEqualTo("fr-FR");
      assertThat(events(t, HistoryEvent.EMAIL_BOUNCED)).hasSize(1);
      assertThat(events(t, HistoryEvent.CUSTOMER_CHANGED)).hasSize(1);
      List<RecordInput> payments = events(t, HistoryEvent.PAYMENT_SUCCEEDED);
      RecordInput paid = payments.get(payments.size() - 1);
      assertThat(paid.receipt().email()).isEqualTo("ada@new.example");
      assertThat(paid.receipt().cycle()).isEqualTo(2);
      assertThat(workflow.state().subscription().lifecycle().emailBounce()).isNull();
    }
  }

  private static List<String> versionMarkers(BillingTestEnvironment t, String runId) {
    return t.history("sub-east", runId).stream()
        .filter(e -> e.getEventType() == EventType.EVENT_TYPE_MARKER_RECORDED)
        .filter(e -> e.getAttributesCase() == AttributesCase.MARKER_RECORDED_EVENT_ATTRIBUTES)
        .filter(e -> e.getMarkerRecordedEventAttributes().getMarkerName().equals("Version"))
        .map(
            e ->
                e.getMarkerRecordedEventAttributes()
                    .getDetailsMap()
                    .get("changeId")
                    .getPayloads(0)
                    .getData()
                    .toStringUtf8()
                    .replace("\"", ""))
        .toList();
  }
}
