package dev.billing.api.lifecycle;

import static dev.billing.api.support.ApiRequests.assertInvalidField;
import static dev.billing.api.support.ApiRequests.assertProblem;
import static dev.billing.api.support.ApiRequests.body;
import static dev.billing.api.support.ApiRequests.newAccount;
import static dev.billing.api.support.ApiRequests.subscriptionBody;
import static dev.billing.api.support.ApiRequests.subscriptionPath;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.support.LifecycleCalls;
import dev.billing.api.support.ResourceTestSupport;
import dev.billing.api.support.fakes.FakeSubscriptionWorkflows.Sent;
import dev.billing.workflows.CustomerChange;
import dev.billing.workflows.UpdateRejections;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * POST .../customer on the resources with fakes of Temporal: what it refuses before anything
 * reaches the workflow (400 naming the field, 404, 409 for an ended subscription), and what it
 * sends. What the workflow does with the change is CustomerChangeTest's (workflows module).
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class CustomerChangeInputTest {

  static final ResourceTestSupport API = ResourceTestSupport.start();

  static final LifecycleCalls CALLS = new LifecycleCalls(API);

  private static String newSubscription(String account) {
    return API.created(account, subscriptionBody()).get("subscriptionId").asText();
  }

  private static Response customer(String account, String id, String json) {
    return CALLS.post(account, id, "customer", json);
  }

  @Test
  void eachDetailIsValidatedAsAtCreation() {
    String account = newAccount();
    String id = newSubscription(account);

    for (String email :
        new String[] {"ana", "Ana <ana@example.com>", "ana@localhost", "a\\nb@example.com"}) {
      assertInvalidField(customer(account, id, "{\"email\":\"" + email + "\"}"), "email");
    }
    assertThat(assertInvalidField(customer(account, id, "{\"email\":\"ana\"}"), "email"))
        .isEqualTo("email must be an address such as \"ana@example.com\"");
    assertThat(assertInvalidField(customer(account, id, "{\"email\":\" \"}"), "email"))
        .isEqualTo("email must not be blank");
    for (String locale : new String[] {"", "xx-YY", "en_US", "english"}) {
      assertInvalidField(customer(account, id, "{\"locale\":\"" + locale + "\"}"), "locale");
    }
    assertThat(
            assertInvalidField(
                customer(account, id, "{\"timeZone\":\"Mars/Olympus\"}"), "timeZone"))
        .isEqualTo("timeZone must be an IANA zone id such as \"Europe/Paris\"");
    assertInvalidField(customer(account, id, "{\"timeZone\":\"\"}"), "timeZone");
    assertInvalidField(customer(account, id, "{\"phone\":\"+33 1 23 45 67 89\"}"), "phone");
    assertInvalidField(
        customer(account, id, "{\"email\":\"ana@example.com\",\"timeZone\":\"Nowhere\"}"),
        "timeZone");

    assertThat(API.stack().workflows.sentTo(id)).as("updates sent").isEmpty();
  }

  @Test
  void anEmptyBodyNamesAllThreeFields() {
    String account = newAccount();
    String id = newSubscription(account);

    for (String json : new String[] {"{}", null}) {
      JsonNode problem = assertProblem(customer(account, id, json), 400);
      assertThat(problem.get("detail").asText())
          .isEqualTo("give at least one of email, locale and timeZone");
      assertThat(problem.get("errors"))
          .extracting(e -> e.get("field").asText())
          .containsExactly("email", "locale", "timeZone");
    }
    // As on every endpoint, a field is left out rather than sent as null.
    assertInvalidField(customer(account, id, "{\"email\":null}"), "email");
    assertThat(API.stack().workflows.sentTo(id)).as("updates sent").isEmpty();
  }

  @Test
  void theChangeIsSentNormalizedUnderItsIdempotencyKey() {
    String account = newAccount();
    String id = newSubscription(account);

    Response response =
        API.postJson(
            subscriptionPath(account, id) + "/customer",
            "{\"email\":\" ada@new.example \",\"locale\":\"FR-ca\",\"timeZone\":\" Asia/Tokyo \"}",
            "move-1");

    assertThat(response.getStatus()).as("%s", body(response)).isEqualTo(200);
    List<Sent> sent = API.stack().workflows.sentTo(id);
    assertThat(sent).extracting(Sent::update).containsExactly("changeCustomer");
    assertThat(sent.get(0).request())
        .isEqualTo(
            new CustomerChange(
                "ada@new.example", "fr-CA", "Asia/Tokyo", API.operatorPrincipal(), "move-1"));
  }

  @Test
  void theSameKeyWithAnotherChangeIsAReusedKey() {
    String account = newAccount();
    String id = newSubscription(account);
    String path = subscriptionPath(account, id) + "/customer";

    Response first = API.postJson(path, "{\"locale\":\"de-DE\"}", "locale-1");
    Response repeat = API.postJson(path, "{\"locale\":\"de-DE\"}", "locale-1");
    Response other = API.postJson(path, "{\"locale\":\"it-IT\"}", "locale-1");

    assertThat(first.getStatus()).isEqualTo(200);
    assertThat(repeat.getStatus()).isEqualTo(200);
    assertThat(assertProblem(other, 409).get("type").asText()).endsWith("/idempotency-key-reused");
  }

  @Test
  void unknownAndEndedSubscriptionsAndOtherAccountsAreRefused() {
    String account = newAccount();
    String id = newSubscription(account);
    String other = newAccount();
    String toParis = "{\"timeZone\":\"Europe/Paris\"}";

    assertProblem(customer(account, "sub_nothere", toParis), 404);
    assertProblem(customer(other, id, toParis), 404);
    Response withOtherAccountsKey =
        API.requestAs(API.accountKey(other), subscriptionPath(account, id) + "/customer")
            .post(Entity.entity(toParis, MediaType.APPLICATION_JSON_TYPE));
    assertProblem(withOtherAccountsKey, 404);
    assertThat(API.stack().workflows.sentTo(id)).isEmpty();

    API.stack().cancelled(account, id);
    JsonNode ended = assertProblem(customer(account, id, toParis), 409);
    assertThat(ended.get("type").asText()).endsWith("/transition-not-allowed");
    assertThat(ended.get("detail").asText())
        .isEqualTo(
            "Subscription " + id + " is CANCELLED; it cannot be given new customer details.");
  }

  @Test
  void aChangeThatChangesNothingIsTheWorkflowsConflict() {
    String account = newAccount();
    String id = newSubscription(account);
    API.stack()
        .workflows
        .refuseNext(
            UpdateRejections.TRANSITION_NOT_ALLOWED,
            "nothing to change: the subscription already has this time zone UTC");

    JsonNode problem = assertProblem(customer(account, id, "{\"timeZone\":\"UTC\"}"), 409);

    assertThat(problem.get("detail").asText())
        .isEqualTo("nothing to change: the subscription already has this time zone UTC.");
  }
}
