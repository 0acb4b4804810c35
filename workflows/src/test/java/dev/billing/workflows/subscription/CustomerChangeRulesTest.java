package dev.billing.workflows.subscription;

import static dev.billing.workflows.subscription.ChangeRulesTest.active;
import static dev.billing.workflows.subscription.ChangeRulesTest.sub;
import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.EmailBounce;
import dev.billing.domain.Lifecycle;
import dev.billing.domain.Pause;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.workflows.CustomerChange;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

/**
 * When new customer details are refused: plain unit tests of {@link ChangeRules#customer}. The
 * subscription is {@code a@example.com}, en-US, UTC.
 */
class CustomerChangeRulesTest {

  private static CustomerChange change(String email, String locale, String timeZone) {
    return new CustomerChange(email, locale, timeZone, "user:ada");
  }

  @Test
  void anyStatusButEndedTakesNewDetails() {
    LocalDate today = LocalDate.parse("2028-02-01");
    Subscription paused =
        sub(SubscriptionStatus.PAUSED, Lifecycle.NONE.withPause(new Pause(today, null, null)));
    Subscription ending =
        sub(SubscriptionStatus.ACTIVE, Lifecycle.NONE.withCancelsOn(LocalDate.parse("2028-02-15")));
    CustomerChange toParis = change(null, null, "Europe/Paris");

    for (Subscription sub :
        new Subscription[] {
          active(),
          paused,
          ending,
          sub(SubscriptionStatus.TRIALING, null),
          sub(SubscriptionStatus.PAST_DUE, null)
        }) {
      assertThat(ChangeRules.customer(sub, toParis, false)).as("%s", sub.status()).isNull();
    }
    assertThat(ChangeRules.customer(sub(SubscriptionStatus.CANCELLED, null), toParis, false))
        .isEqualTo("subscription is cancelled");
    assertThat(ChangeRules.customer(active(), toParis, true))
        .isEqualTo("subscription is cancelled");
  }

  @Test
  void atLeastOneWellFormedDetailIsRequired() {
    String none = "give at least one of email, locale and timeZone";
    assertThat(ChangeRules.customer(active(), null, false)).isEqualTo(none);
    assertThat(ChangeRules.customer(active(), change(null, null, null), false)).isEqualTo(none);
    for (String email :
        new String[] {"", "ana", "@example.com", "ana@", "a@b@c.com", "a na@x.io"}) {
      assertThat(ChangeRules.customer(active(), change(email, null, null), false))
          .as(email)
          .isEqualTo("email must be an address such as \"ana@example.com\"");
    }
    assertThat(ChangeRules.customer(active(), change(null, "", null), false))
        .isEqualTo("locale must be a BCP 47 language tag such as \"en-US\"");
    assertThat(ChangeRules.customer(active(), change(null, null, "Mars/Olympus"), false))
        .isEqualTo("timeZone must be an IANA zone id such as \"Europe/Paris\"");
    assertThat(ChangeRules.customer(active(), change(null, null, " "), false))
        .isEqualTo("timeZone is required");
  }

  @Test
  void aRequestThatChangesNothingIsRefusedNamingWhatIsAlreadySo() {
    assertThat(ChangeRules.customer(active(), change("a@example.com", null, null), false))
        .isEqualTo("nothing to change: the subscription already has this email");
    assertThat(ChangeRules.customer(active(), change("a@example.com", "en-US", "UTC"), false))
        .isEqualTo(
            "nothing to change: the subscription already has this email and locale en-US and"
                + " time zone UTC");
    assertThat(ChangeRules.customer(active(), change(null, "en-US", null), false))
        .isEqualTo("nothing to change: the subscription already has this locale en-US");
  }

  @Test
  void oneDetailThatDiffersIsEnough() {
    assertThat(ChangeRules.customer(active(), change("b@example.com", "en-US", "UTC"), false))
        .isNull();
    assertThat(ChangeRules.customer(active(), change("a@example.com", "fr-FR", "UTC"), false))
        .isNull();
    assertThat(
            ChangeRules.customer(active(), change("a@example.com", "en-US", "Asia/Tokyo"), false))
        .isNull();
  }

  @Test
  void theSameEmailWhileABounceIsRecordedClearsTheBounce() {
    Subscription bounced =
        sub(
            SubscriptionStatus.ACTIVE,
            Lifecycle.NONE.withEmailBounce(
                new EmailBounce(
                    Instant.parse("2028-01-12T00:00:00Z"), "<reminder.1.sub-1@billing>", "550")));

    assertThat(ChangeRules.customer(bounced, change("a@example.com", null, null), false)).isNull();
    assertThat(ChangeRules.customer(bounced, change(null, "en-US", null), false))
        .isEqualTo("nothing to change: the subscription already has this locale en-US");
  }
}
