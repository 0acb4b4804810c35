package dev.billing.api.lifecycle;

import static dev.billing.api.support.ApiRequests.assertInvalidField;
import static dev.billing.api.support.ApiRequests.assertProblem;
import static dev.billing.api.support.ApiRequests.body;
import static dev.billing.api.support.ApiRequests.newAccount;
import static dev.billing.api.support.ApiRequests.subscriptionBody;
import static dev.billing.api.support.ApiRequests.subscriptionPath;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.support.ApiTestStack;
import dev.billing.api.support.LifecycleCalls;
import dev.billing.api.support.ResourceTestSupport;
import dev.billing.api.support.fakes.FakeSubscriptionWorkflows.Sent;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.workflows.ReactivateRequest;
import dev.billing.workflows.UpdateRejections;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * POST .../reactivate on the resources with fakes of Temporal: what it refuses before anything
 * reaches a workflow (400 naming the field, 404, the 409s an ended subscription's record decides),
 * and what it sends where. What the workflow does is SubscriptionReactivationTest's (workflows).
 * "Now" is the stack's fixed start; the window is the default 30 days.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ReactivationInputTest {

  static final ResourceTestSupport API = ResourceTestSupport.start();

  static final LifecycleCalls CALLS = new LifecycleCalls(API);

  private static final Instant NOW = ApiTestStack.START;

  private static String newSubscription(String account) {
    return API.created(account, subscriptionBody()).get("subscriptionId").asText();
  }

  private static Response reactivate(String account, String id, String json) {
    return CALLS.post(account, id, "reactivate", json);
  }

  private static String cancelledDaysAgo(String account, long days) {
    String id = newSubscription(account);
    API.stack().cancelledAt(account, id, NOW.minus(Duration.ofDays(days)));
    return id;
  }

  @Test
  void aSubscriptionThatNeverPaidIsAConflictAndNothingIsStarted() {
    String account = newAccount();
    String id = newSubscription(account);
    API.stack().cancelledAt(account, id, NOW.minus(Duration.ofDays(2)), false);

    JsonNode problem = assertProblem(reactivate(account, id, "{}"), 409);

    assertThat(problem.get("type").asText()).endsWith("/never-paid");
    assertThat(API.stack().workflows.sentTo(id)).isEmpty();
  }

  @Test
  void withinTheWindowTheEndedWorkflowIsStartedAgainWithTheReactivation() {
    String account = newAccount();
    String id = cancelledDaysAgo(account, 29);

    Response response =
        API.postJson(
            subscriptionPath(account, id) + "/reactivate",
            "{\"reason\":\" came back \"}",
            "back-1");

    assertThat(response.getStatus()).as("%s", body(response)).isEqualTo(200);
    List<Sent> sent = API.stack().workflows.sentTo(id);
    assertThat(sent).extracting(Sent::update).containsExactly("reactivate");
    assertThat(sent.get(0).request())
        .isEqualTo(new ReactivateRequest("came back", API.operatorPrincipal(), "back-1"));
    assertThat(API.stack().workflows.running(id)).as("the run started again").isTrue();
  }

  @Test
  void aBodyIsOptionalAndItsRequestIdIsTheIdempotencyKeyHeader() {
    String account = newAccount();
    String id = cancelledDaysAgo(account, 1);

    assertThat(reactivate(account, id, null).getStatus()).isEqualTo(200);
    assertInvalidField(
        reactivate(account, newSubscription(account), "{\"requestId\":\"r-1\"}"), "requestId");
    assertInvalidField(
        reactivate(account, id, "{\"reason\":\"" + "x".repeat(501) + "\"}"), "reason");
    Response badKey =
        API.request(subscriptionPath(account, id) + "/reactivate")
            .header("Idempotency-Key", "")
            .post(Entity.entity("{}", MediaType.APPLICATION_JSON_TYPE));
    assertInvalidField(badKey, "Idempotency-Key");
  }

  @Test
  void pastTheWindowItIsAConflictNamingWhyAndNothingIsStarted() {
    String account = newAccount();
    String id = cancelledDaysAgo(account, 31);

    JsonNode problem = assertProblem(reactivate(account, id, "{}"), 409);

    assertThat(problem.get("type").asText()).endsWith("/reactivation-window-closed");
    assertThat(problem.get("detail").asText())
        .isEqualTo(
            "Subscription "
                + id
                + " was cancelled at "
                + NOW.minus(Duration.ofDays(31))
                + "; it could be reactivated until "
                + NOW.minus(Duration.ofDays(1))
                + " (30 days).");
    assertThat(API.stack().workflows.sentTo(id)).isEmpty();
    assertThat(API.stack().workflows.running(id)).isFalse();
  }

  @Test
  void aPeriodLeftUnpaidIsAConflictNamingIt() {
    String account = newAccount();
    String id = newSubscription(account);
    Subscription current = API.stack().store.getSubscription(account, id).orElseThrow();
    Period unpaid =
        new Period(
            account,
            id,
            1,
            current.schedule().dueDate(1),
            current.price(),
            PeriodStatus.ERROR,
            4,
            null,
            "card_declined",
            "Your card was declined.",
            NOW.minus(Duration.ofDays(3)));
    API.stack()
        .store
        .updateSubscription(
            new RecordInput(
                "exhausted",
                current,
                current.scheduledFor(2).withVersion(current.version() + 1),
                HistoryEvent.DUNNING_EXHAUSTED,
                Process.RETRY,
                "system",
                "dunning exhausted",
                unpaid,
                null,
                NOW.minus(Duration.ofDays(3))));
    API.stack().cancelledAt(account, id, NOW.minus(Duration.ofDays(3)));

    JsonNode problem = assertProblem(reactivate(account, id, "{}"), 409);

    assertThat(problem.get("type").asText()).endsWith("/unpaid-period");
    assertThat(problem.get("detail").asText()).startsWith("Period 1 of subscription " + id);
    assertThat(API.stack().workflows.sentTo(id)).isEmpty();
  }

  @Test
  void aSubscriptionNotCancelledIsTheWorkflowsConflict() {
    String account = newAccount();
    String id = newSubscription(account);
    API.stack()
        .workflows
        .refuseNext(UpdateRejections.TRANSITION_NOT_ALLOWED, "subscription is not cancelled");

    JsonNode problem = assertProblem(reactivate(account, id, null), 409);

    assertThat(problem.get("type").asText()).endsWith("/transition-not-allowed");
    assertThat(problem.get("detail").asText()).isEqualTo("subscription is not cancelled.");
    assertThat(API.stack().workflows.sentTo(id))
        .extracting(Sent::update)
        .containsExactly("reactivate");
  }

  @Test
  void unknownSubscriptionsAndOtherAccountsAreNotFound() {
    String account = newAccount();
    String id = cancelledDaysAgo(account, 2);
    String other = newAccount();

    assertProblem(reactivate(account, "sub_nothere", null), 404);
    assertProblem(reactivate(other, id, null), 404);
    Response withOtherAccountsKey =
        API.requestAs(API.accountKey(other), subscriptionPath(account, id) + "/reactivate")
            .post(Entity.entity("{}", MediaType.APPLICATION_JSON_TYPE));
    assertProblem(withOtherAccountsKey, 404);
    assertThat(API.stack().workflows.sentTo(id)).isEmpty();
  }
}
