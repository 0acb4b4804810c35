package dev.billing.api.input;

import static dev.billing.api.support.ApiRequests.assertProblem;
import static dev.billing.api.support.ApiRequests.newAccount;
import static dev.billing.api.support.ApiRequests.subscriptionBody;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.support.LifecycleCalls;
import dev.billing.api.support.ResourceTestSupport;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The whole problem body POST .../billing-day answers for each bad billing day, field by field: the
 * contract of docs/api.md, whichever mechanism checks the rule.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class BillingDayAnswersTest {

  static final ResourceTestSupport API = ResourceTestSupport.start();
  static final LifecycleCalls CALLS = new LifecycleCalls(API);

  @Test
  void eachBadBillingDayIsOneNamedError() {
    String account = newAccount();
    String id = API.created(account, subscriptionBody()).get("subscriptionId").asText();

    assertOneError(CALLS.post(account, id, "billing-day", "{}"), "billingDay is required");
    assertOneError(
        CALLS.post(account, id, "billing-day", "{\"billingDay\":null}"),
        "billingDay must not be null; leave it out to use its default");
    assertOneError(
        CALLS.post(account, id, "billing-day", "{\"billingDay\":0}"),
        "billingDay must be between 1 and 31");
    assertOneError(
        CALLS.post(account, id, "billing-day", "{\"billingDay\":-5}"),
        "billingDay must be between 1 and 31");
    assertOneError(
        CALLS.post(account, id, "billing-day", "{\"billingDay\":32}"),
        "billingDay must be between 1 and 31");
    assertThat(API.stack().workflows.sentTo(id)).as("updates sent").isEmpty();
  }

  @Test
  void theRangeIsCheckedBeforeTheSubscriptionIsLookedUp() {
    assertOneError(
        CALLS.post(newAccount(), "sub_nothere", "billing-day", "{\"billingDay\":32}"),
        "billingDay must be between 1 and 31");
  }

  private static void assertOneError(jakarta.ws.rs.core.Response response, String message) {
    JsonNode problem = assertProblem(response, 400);
    assertThat(problem.get("type").asText())
        .isEqualTo("https://billing.dev/problems/invalid-request");
    assertThat(problem.get("title").asText()).isEqualTo("The request is invalid");
    assertThat(problem.get("detail").asText()).isEqualTo(message);
    assertThat(problem.get("errors")).hasSize(1);
    assertThat(problem.get("errors").get(0).get("field").asText()).isEqualTo("billingDay");
    assertThat(problem.get("errors").get(0).get("message").asText()).isEqualTo(message);
    assertThat(problem.size()).as("fields of %s", problem).isEqualTo(5);
  }
}
