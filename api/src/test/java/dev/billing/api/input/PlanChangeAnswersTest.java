package dev.billing.api.input;

import static dev.billing.api.support.ApiRequests.assertProblem;
import static dev.billing.api.support.ApiRequests.newAccount;
import static dev.billing.api.support.ApiRequests.subscriptionBody;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.support.LifecycleCalls;
import dev.billing.api.support.ResourceTestSupport;
import dev.billing.domain.Term;
import dev.billing.workflows.PlanChangeRequest;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import jakarta.ws.rs.core.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The whole problem body POST .../plan answers where PlanChangeTest checks one field at a time: all
 * errors at once in their fixed order, the empty body, stripped values, and body errors before the
 * subscription is looked up. The contract of docs/api.md, whichever mechanism checks.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class PlanChangeAnswersTest {

  static final ResourceTestSupport API = ResourceTestSupport.start();
  static final LifecycleCalls CALLS = new LifecycleCalls(API);

  @Test
  void everyInvalidFieldIsReportedInOneFixedOrder() {
    String account = newAccount();
    String id = API.created(account, subscriptionBody()).get("subscriptionId").asText();

    JsonNode all =
        invalid(
            CALLS.post(
                account,
                id,
                "plan",
                "{\"effective\":\"later\",\"amount\":\"-1\",\"currency\":\"XAU\",\"sku\":\"a b\"}"));
    assertThat(all.get("detail").asText()).isEqualTo("3 inputs are invalid; see errors.");
    assertThat(all.get("errors").toString())
        .isEqualTo(
            "["
                + error("sku", "sku must be 1 to 64 letters, digits, '.', '_' or '-'")
                + ","
                + error("currency", "currency XAU has no minor unit and cannot be billed")
                + ","
                + error("effective", "effective must be \\\"now\\\" or \\\"periodEnd\\\"")
                + "]");

    JsonNode missing =
        invalid(CALLS.post(account, id, "plan", "{\"amount\":\"0\",\"currency\":\"USD\"}"));
    assertThat(missing.get("detail").asText()).isEqualTo("3 inputs are invalid; see errors.");
    assertThat(missing.get("errors").toString())
        .isEqualTo(
            "["
                + error("sku", "sku is required")
                + ","
                + error("amount", "amount must be greater than zero")
                + ","
                + error("effective", "effective is required")
                + "]");
    assertThat(API.stack().workflows.sentTo(id)).as("updates sent").isEmpty();
  }

  @Test
  void anEmptyBodyIsReportedForTheBodyAsAWhole() {
    String account = newAccount();
    String id = API.created(account, subscriptionBody()).get("subscriptionId").asText();

    JsonNode problem = invalid(CALLS.post(account, id, "plan", ""));

    assertThat(problem.get("errors").toString())
        .isEqualTo(
            "[{\"field\":null,\"message\":"
                + "\"a JSON object with sku, amount, currency and effective is required\"}]");
  }

  @Test
  void valuesAreCheckedStrippedAndBeforeTheSubscriptionIsLookedUp() {
    String account = newAccount();

    JsonNode problem =
        invalid(
            CALLS.post(
                account,
                "sub_nothere",
                "plan",
                "{\"sku\":\" team \",\"amount\":\" 1.00 \",\"currency\":\" USD \",\"effective\":\" soon \"}"));
    assertThat(problem.get("errors").toString())
        .isEqualTo(
            "[" + error("effective", "effective must be \\\"now\\\" or \\\"periodEnd\\\"") + "]");

    assertProblem(
        CALLS.post(
            account,
            "sub_nothere",
            "plan",
            "{\"sku\":\" team \",\"amount\":\" 1.00 \",\"currency\":\" USD \",\"effective\":\" now \"}"),
        404);
  }

  private static JsonNode invalid(Response response) {
    JsonNode problem = assertProblem(response, 400);
    assertThat(problem.get("type").asText())
        .isEqualTo("https://billing.dev/problems/invalid-request");
    assertThat(problem.get("title").asText()).isEqualTo("The request is invalid");
    assertThat(problem.size()).as("fields of %s", problem).isEqualTo(5);
    return problem;
  }

  private static String error(String field, String message) {
    return "{\"field\":\"" + field + "\",\"message\":\"" + message + "\"}";
  }

  @Test
  void aTermIsOptionalAndOnlyMonthlyOrYearlyAndIsSentWithThePlan() {
    String account = newAccount();
    String id = API.created(account, subscriptionBody()).get("subscriptionId").asText();
    String plan =
        "{\"sku\":\"plus-yearly\",\"amount\":\"99.00\",\"currency\":\"USD\","
            + "\"effective\":\"now\"";

    JsonNode weekly = invalid(CALLS.post(account, id, "plan", plan + ",\"term\":\"WEEKLY\"}"));
    assertThat(weekly.get("errors").toString())
        .isEqualTo("[" + error("term", "term must be MONTHLY or YEARLY") + "]");
    assertThat(API.stack().workflows.sentTo(id)).isEmpty();

    Response yearly = CALLS.post(account, id, "plan", plan + ",\"term\":\"YEARLY\"}");
    Response kept = CALLS.post(account, id, "plan", plan + "}");

    assertThat(yearly.getStatus()).isEqualTo(200);
    assertThat(kept.getStatus()).isEqualTo(200);
    assertThat(API.stack().workflows.sentTo(id))
        .extracting(sent -> ((PlanChangeRequest) sent.request()).term())
        .containsExactly(Term.YEARLY, null);
  }
}
