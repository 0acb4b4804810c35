package dev.billing.api.lifecycle;

import static dev.billing.api.support.ApiTestSupport.assertInvalidField;
import static dev.billing.api.support.ApiTestSupport.assertProblem;
import static dev.billing.api.support.ApiTestSupport.body;
import static dev.billing.api.support.ApiTestSupport.newAccount;
import static dev.billing.api.support.ApiTestSupport.subscriptionBody;
import static dev.billing.api.support.ApiTestSupport.with;
import static dev.billing.api.support.ApiTestSupport.without;
import static dev.billing.api.support.LifecycleCalls.usd;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.ApiConfiguration;
import dev.billing.api.support.ApiTestSupport;
import dev.billing.api.support.LifecycleCalls;
import dev.billing.domain.Subscription;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code trialDays} and {@code locale} on create. Only the first test moves the clock, to early
 * 2027; the others create subscriptions starting in 2028, so the order does not matter.
 */
@Tag("e2e")
class TrialAndLocaleTest {

  static final ApiTestSupport API = ApiTestSupport.start();

  @RegisterExtension static final DropwizardAppExtension<ApiConfiguration> APP = API.extension();

  static final LifecycleCalls CALLS = new LifecycleCalls(API);

  private static Map<String, Object> trial(String startDate, int trialDays) {
    return with(
        with(without(subscriptionBody(), "billingDay"), "startDate", startDate),
        "trialDays",
        trialDays);
  }

  @Test
  void aFourteenDayTrialFromJanuaryTenthIsChargedFirstOnJanuaryTwentyFourth() {
    String account = newAccount();

    JsonNode created = API.created(account, trial("2027-01-10", 14));

    String id = created.get("subscriptionId").asText();
    assertThat(created.get("status").asText()).isEqualTo("TRIALING");
    assertThat(created.get("trialEndsOn").asText()).isEqualTo("2027-01-24");
    assertThat(created.get("nextPaymentDate").asText()).isEqualTo("2027-01-24");
    // The reminder goes out before the trial ends; the anchor follows the trial's end.
    assertThat(created.get("nextReminderDate").asText()).isEqualTo("2027-01-21");
    assertThat(created.get("billingDay").asInt()).isEqualTo(24);
    assertThat(created.get("firstPaymentMonth").asText()).isEqualTo("2027-01");

    CALLS.sleepUntil(Instant.parse("2027-01-23T12:00:00Z"));
    assertThat(CALLS.charges(id)).isEmpty();
    assertThat(CALLS.subscription(account, id).get("status").asText()).isEqualTo("TRIALING");
    CALLS.sleepUntil(Instant.parse("2027-01-24T12:00:00Z"));

    assertThat(CALLS.succeeded(id))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.cycle()).isEqualTo(1L);
              assertThat(c.amount()).isEqualTo(usd("9.99"));
              assertThat(c.at()).isAfterOrEqualTo(Instant.parse("2027-01-24T00:00:00Z"));
            });
    JsonNode after = CALLS.subscription(account, id);
    assertThat(after.get("status").asText()).isEqualTo("ACTIVE");
    assertThat(after.get("nextPaymentDate").asText()).isEqualTo("2027-02-24");
    assertThat(CALLS.periods(account, id).get(1L).get("dueDate").asText()).isEqualTo("2027-01-24");
    assertThat(CALLS.cyclesOf(account, id, "REMINDER_SENT")).containsExactly(1L);
    CALLS.ok(account, id, "cancel", "{}");
  }

  @Test
  void withABillingDayTheTrialRunsOnToTheFirstBillingDateAfterItsEnd() {
    JsonNode created = API.created(newAccount(), with(trial("2028-01-10", 14), "billingDay", 1));

    // The 14 days end on Jan 24; the trial runs on to Feb 1, with no stub charge in between.
    assertThat(created.get("status").asText()).isEqualTo("TRIALING");
    assertThat(created.get("trialEndsOn").asText()).isEqualTo("2028-02-01");
    assertThat(created.get("nextPaymentDate").asText()).isEqualTo("2028-02-01");
    assertThat(created.get("billingDay").asInt()).isEqualTo(1);
  }

  @Test
  void aTrialEndingOnTheTwentyNinthOfFebruaryAnchorsOnThe29th() {
    JsonNode created = API.created(newAccount(), trial("2028-02-15", 14));

    assertThat(created.get("trialEndsOn").asText()).isEqualTo("2028-02-29");
    assertThat(created.get("billingDay").asInt()).isEqualTo(29);
    assertThat(created.get("nextPaymentDate").asText()).isEqualTo("2028-02-29");
  }

  @Test
  void withoutATrialNothingChanges() {
    JsonNode created =
        API.created(
            newAccount(),
            with(with(subscriptionBody(), "startDate", "2028-03-20"), "trialDays", 0));

    assertThat(created.get("status").asText()).isEqualTo("INCOMPLETE");
    assertThat(created.get("trialEndsOn").isNull()).isTrue();
    assertThat(created.get("nextPaymentDate").asText()).isEqualTo("2028-03-20");
    assertThat(created.get("locale").asText()).isEqualTo("en-US");
  }

  @Test
  void theLocaleIsStoredInItsCanonicalForm() {
    String account = newAccount();
    JsonNode created =
        API.created(
            account, with(with(subscriptionBody(), "startDate", "2028-03-20"), "locale", "fr-ca"));

    assertThat(created.get("locale").asText()).isEqualTo("fr-CA");
    Subscription stored =
        API.stack()
            .store
            .getSubscription(account, created.get("subscriptionId").asText())
            .orElseThrow();
    assertThat(stored.locale()).isEqualTo("fr-CA");
  }

  @Test
  void trialDaysAndLocaleArePartOfTheIdempotentRequest() {
    String account = newAccount();
    Map<String, Object> request = with(trial("2028-04-01", 30), "locale", "de-DE");
    Response first = API.createSubscription(account, request, "trial-1");
    assertThat(first.getStatus()).isEqualTo(201);

    Response same = API.createSubscription(account, with(request, "locale", "de-de"), "trial-1");
    assertThat(same.getStatus()).isEqualTo(200);
    assertThat(body(same).get("trialEndsOn").asText()).isEqualTo("2028-05-01");

    assertProblem(API.createSubscription(account, with(request, "trialDays", 31), "trial-1"), 409);
    assertProblem(
        API.createSubscription(account, with(request, "locale", "de-AT"), "trial-1"), 409);
  }

  @Test
  void badTrialsAndLocalesAreRejected() {
    String account = newAccount();
    Map<String, Object> valid = with(subscriptionBody(), "startDate", "2028-03-20");

    assertThat(
            assertInvalidField(
                API.createSubscription(account, with(valid, "trialDays", 731), null), "trialDays"))
        .isEqualTo("trialDays must be between 0 and 730");
    assertInvalidField(
        API.createSubscription(account, with(valid, "trialDays", -1), null), "trialDays");
    assertInvalidField(
        API.createSubscription(account, with(valid, "trialDays", "14"), null), "trialDays");
    for (String bad :
        new String[] {"en_US", "", "english", "xx-US", "en-ZZ", "x-private", "a".repeat(36)}) {
      assertThat(
              assertInvalidField(
                  API.createSubscription(account, with(valid, "locale", bad), null), "locale"))
          .as(bad)
          .isEqualTo("locale must be a BCP 47 language tag such as \"en-US\" or \"fr-CA\"");
    }
    assertInvalidField(API.createSubscription(account, with(valid, "locale", 7), null), "locale");
    assertThat(
            API.stack()
                .store
                .getSubscriptionsByAccount(account, dev.billing.store.PageRequest.first(10))
                .items())
        .isEmpty();
  }
}
