package dev.billing.api;

import static dev.billing.api.support.ApiRequests.assertProblem;
import static dev.billing.api.support.ApiRequests.body;
import static dev.billing.api.support.ApiRequests.newAccount;
import static dev.billing.api.support.ApiRequests.subscriptionBody;
import static dev.billing.api.support.ApiRequests.subscriptionPath;
import static dev.billing.api.support.ApiRequests.with;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.subscriptions.SubscriptionIds;
import dev.billing.api.support.ResourceTestSupport;
import dev.billing.domain.Money;
import dev.billing.domain.Subscription;
import dev.billing.store.PageRequest;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Idempotency-Key of POST /v1/accounts/{accountId}/subscriptions, on the resources: a replay is
 * answered from the store, another request under the key is a 409, a key is an account's. The store
 * is DynamoDB Local; the workflow a fake that attaches a second start of a running id to it and
 * refuses to start an ended one, as Temporal does.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class SubscriptionIdempotencyTest {

  static final ResourceTestSupport API = ResourceTestSupport.start();

  @Test
  void replayingAnIdempotencyKeyReturnsTheSameSubscriptionWithoutCreatingAnother() {
    String account = newAccount();
    Map<String, Object> request = subscriptionBody();

    Response first = API.createSubscription(account, request, "order-42");
    JsonNode firstBody = body(first);
    Response second = API.createSubscription(account, request, "order-42");
    JsonNode secondBody = body(second);

    assertThat(first.getStatus()).isEqualTo(201);
    assertThat(second.getStatus()).isEqualTo(200);
    assertThat(secondBody).isEqualTo(firstBody);
    // The request is compared as validated: "9.990" is the same amount as "9.99".
    Response equivalent =
        API.createSubscription(account, with(request, "amount", "9.990"), "order-42");
    assertThat(equivalent.getStatus()).isEqualTo(200);
    assertThat(body(equivalent)).isEqualTo(firstBody);
    assertThat(firstBody.get("subscriptionId").asText())
        .isEqualTo(SubscriptionIds.fromIdempotencyKey(account, "order-42"));
    assertThat(API.stack().store.getSubscriptionsByAccount(account, PageRequest.first(10)).items())
        .extracting(Subscription::subscriptionId)
        .containsExactly(firstBody.get("subscriptionId").asText());
  }

  @Test
  void reusingAnIdempotencyKeyWithADifferentRequestIsAConflictThatChangesNothing() {
    String account = newAccount();
    JsonNode original = body(API.createSubscription(account, subscriptionBody(), "order-43"));

    Response reused =
        API.createSubscription(account, with(subscriptionBody(), "amount", "19.99"), "order-43");

    JsonNode problem = assertProblem(reused, 409);
    assertThat(problem.get("type").asText())
        .isEqualTo("https://billing.dev/problems/idempotency-key-reused");
    assertThat(problem.get("title").asText())
        .isEqualTo("Idempotency key reused with a different request");
    assertThat(API.stack().store.getSubscriptionsByAccount(account, PageRequest.first(10)).items())
        .singleElement()
        .satisfies(s -> assertThat(s.price()).isEqualTo(new Money(999, "USD")));
    assertThat(
            body(API.get(subscriptionPath(account, original.get("subscriptionId").asText())))
                .get("amount")
                .asText())
        .isEqualTo("9.99");
  }

  @Test
  void theSameIdempotencyKeyInAnotherAccountIsAnotherSubscription() {
    String first = newAccount();
    String second = newAccount();

    Response a = API.createSubscription(first, subscriptionBody(), "shared-key");
    Response b = API.createSubscription(second, subscriptionBody(), "shared-key");

    assertThat(a.getStatus()).isEqualTo(201);
    assertThat(b.getStatus()).isEqualTo(201);
    assertThat(body(a).get("subscriptionId").asText())
        .isNotEqualTo(body(b).get("subscriptionId").asText());
  }

  @Test
  void replayingTheKeyOfACancelledSubscriptionReturnsItFromTheStore() {
    String account = newAccount();
    String id =
        body(API.createSubscription(account, subscriptionBody(), "order-44"))
            .get("subscriptionId")
            .asText();
    API.stack().cancelled(account, id);

    Response replay = API.createSubscription(account, subscriptionBody(), "order-44");

    assertThat(replay.getStatus()).isEqualTo(200);
    JsonNode replayed = body(replay);
    assertThat(replayed.get("subscriptionId").asText()).isEqualTo(id);
    assertThat(replayed.get("status").asText()).isEqualTo("CANCELLED");
  }
}
