package dev.billing.api.auth;

import static dev.billing.api.support.ApiRequests.assertProblem;
import static dev.billing.api.support.ApiRequests.body;
import static dev.billing.api.support.ApiRequests.newAccount;
import static dev.billing.api.support.ApiRequests.subscriptionBody;
import static dev.billing.api.support.ApiRequests.subscriptionPath;
import static dev.billing.api.support.ApiRequests.subscriptionsPath;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.support.ResourceTestSupport;
import dev.billing.workflows.UpdateRejections;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Who reaches what: 401 without a valid credential, 404 for another account, 403 for operator
 * paths. The actor recorded for a change and the admin port are in {@link
 * dev.billing.api.ApplicationTest}.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class AccessTest {

  static final ResourceTestSupport API = ResourceTestSupport.start();

  private static final String UNAUTHORIZED = "https://billing.dev/problems/unauthorized";

  @Test
  void everyEndpointButTheWebhooksNeedsACredential() {
    String account = newAccount();
    for (String path :
        List.of(
            subscriptionsPath(account),
            subscriptionPath(account, "sub_1"),
            "/v1/accounts/" + account + "/receipts",
            "/v1/billing/due-payments?date=2026-04-01",
            "/v1/api-keys",
            "/test/failure")) {
      Response response = API.requestAs(null, path).get();
      JsonNode problem = assertProblem(response, 401);
      assertThat(problem.get("type").asText()).as(path).isEqualTo(UNAUTHORIZED);
      assertThat(response.getHeaderString("WWW-Authenticate"))
          .isEqualTo("Bearer realm=\"billing\"");
    }
    // Nothing was created by an unauthenticated create.
    assertProblem(
        API.requestAs(null, subscriptionsPath(account)).post(Entity.json(subscriptionBody())), 401);
    assertThat(body(API.get(subscriptionsPath(account))).get("items")).isEmpty();
  }

  @Test
  void aCredentialThatIsNotValidIsA401ThatSaysNothingMore() {
    String account = newAccount();
    String valid = API.accountKey(account);
    String sameIdOtherSecret = valid.substring(0, valid.length() - 4) + "0000";
    String revoked = API.accountKey(account);
    API.stack().keyService.revoke(revoked.substring(3, 19), "test");

    List<String> details = new java.util.ArrayList<>();
    for (String header :
        List.of(
            "Bearer bk_0123456789abcdef_" + "0".repeat(64),
            "Bearer " + sameIdOtherSecret,
            "Bearer " + revoked,
            "Bearer not-a-key",
            "Basic " + valid,
            "Bearer",
            "Bearer  ",
            valid,
            "Bearer " + valid + " extra",
            "Bearer " + "x".repeat(4000))) {
      Response response =
          API.requestAs(null, subscriptionsPath(account)).header("Authorization", header).get();
      JsonNode problem = assertProblem(response, 401);
      assertThat(response.getHeaderString("WWW-Authenticate"))
          .isEqualTo("Bearer realm=\"billing\", error=\"invalid_token\"");
      details.add(problem.get("detail").asText());
    }
    assertThat(details).containsOnly(details.get(0));
    assertThat(String.join(" ", details)).doesNotContain(valid.substring(3, 19));
  }

  @Test
  void theCredentialIsNeverTakenFromTheQueryString() {
    String account = newAccount();
    Response response =
        API.requestAs(null, subscriptionsPath(account) + "?access_token=" + API.operatorKey())
            .get();

    assertProblem(response, 401);
  }

  @Test
  void twoAuthorizationHeadersAreRefused() {
    Response response =
        API.request(subscriptionsPath(newAccount()))
            .header("Authorization", "Bearer " + API.operatorKey())
            .get();

    assertProblem(response, 401);
  }

  @Test
  void anAccountKeyReachesItsOwnAccount() {
    String account = newAccount();
    String key = API.accountKey(account);

    Response created =
        API.requestAs(key, subscriptionsPath(account)).post(Entity.json(subscriptionBody()));
    String id = body(created).get("subscriptionId").asText();

    assertThat(created.getStatus()).isEqualTo(201);
    assertThat(status(API.requestAs(key, subscriptionPath(account, id)).get())).isEqualTo(200);
    assertThat(status(API.requestAs(key, subscriptionPath(account, id) + "/history").get()))
        .isEqualTo(200);
    assertThat(status(API.requestAs(key, "/v1/accounts/" + account + "/receipts").get()))
        .isEqualTo(200);
  }

  @Test
  void anotherAccountLooksExactlyLikeNoAccountAtAll() {
    String mine = newAccount();
    String theirs = newAccount();
    String key = API.accountKey(mine);
    String theirSubscription =
        API.created(theirs, subscriptionBody()).get("subscriptionId").asText();

    JsonNode existing =
        assertProblem(API.requestAs(key, subscriptionPath(theirs, theirSubscription)).get(), 404);
    JsonNode missing =
        assertProblem(API.requestAs(key, subscriptionPath(newAccount(), "sub_nope")).get(), 404);
    JsonNode cancel =
        assertProblem(
            API.requestAs(key, subscriptionPath(theirs, theirSubscription) + "/cancel")
                .post(Entity.json("{}")),
            404);

    assertThat(existing).isEqualTo(missing).isEqualTo(cancel);
    assertThat(existing.toString()).doesNotContain(theirSubscription).doesNotContain(theirs);
    assertThat(
            API.stack()
                .store
                .getSubscription(theirs, theirSubscription)
                .orElseThrow()
                .status()
                .name())
        .isEqualTo("INCOMPLETE");
    assertThat(API.stack().workflows.sentTo(theirSubscription)).as("updates sent").isEmpty();
    assertProblem(
        API.requestAs(key, subscriptionsPath(theirs)).post(Entity.json(subscriptionBody())), 404);
    assertThat(body(API.get(subscriptionsPath(theirs))).get("items")).hasSize(1);
  }

  @Test
  void operatorPathsAreForbiddenToAnAccountKey() {
    String account = newAccount();
    String key = API.accountKey(account);

    for (String path :
        List.of(
            "/v1/billing/due-payments?date=2026-04-01",
            "/v1/billing/due-reminders?date=2026-04-01",
            "/v1/api-keys",
            "/test/failure",
            "/v1/accounts/" + account + "/test-operator-only")) {
      JsonNode problem = assertProblem(API.requestAs(key, path).get(), 403);
      assertThat(problem.get("type").asText()).isEqualTo("https://billing.dev/problems/forbidden");
    }
    assertProblem(
        API.requestAs(key, "/v1/api-keys").post(Entity.json("{\"role\":\"operator\"}")), 403);
    // An operator-only endpoint of another account is still a 404 for it.
    assertProblem(
        API.requestAs(key, "/v1/accounts/" + newAccount() + "/test-operator-only").get(), 404);
  }

  @Test
  void anAccountKeyCannotWaiveOrRefundItsOwnPeriods() {
    String account = newAccount();
    String key = API.accountKey(account);
    String id = API.created(account, subscriptionBody()).get("subscriptionId").asText();

    for (String action : List.of("/periods/1/waive", "/periods/1/refund")) {
      JsonNode problem =
          assertProblem(
              API.requestAs(key, subscriptionPath(account, id) + action).post(Entity.json("{}")),
              403);
      assertThat(problem.get("type").asText()).isEqualTo("https://billing.dev/problems/forbidden");
    }
    assertThat(API.stack().workflows.sentTo(id)).as("updates sent").isEmpty();
    // The customer may still pay what is owed (409 here: the workflow says nothing is).
    API.stack().workflows.refuseNext(UpdateRejections.TRANSITION_NOT_ALLOWED, "nothing is owed");
    assertThat(
            status(
                API.requestAs(key, subscriptionPath(account, id) + "/pay").post(Entity.json("{}"))))
        .isEqualTo(409);
  }

  @Test
  void anOperatorReachesEverything() {
    String account = newAccount();

    assertThat(status(API.get("/v1/billing/due-payments?date=2026-04-01"))).isEqualTo(200);
    assertThat(status(API.get("/v1/api-keys"))).isEqualTo(200);
    assertThat(
            body(API.get("/v1/accounts/" + account + "/test-operator-only"))
                .get("accountId")
                .asText())
        .isEqualTo(account);
    assertThat(status(API.get(subscriptionsPath(account)))).isEqualTo(200);
  }

  @Test
  void webhooksAreAuthenticatedByTheirSignatureNotByAKey() {
    // No sandbox secret in this app: the endpoint does not exist (404), it does not ask for a key.
    Response response = API.requestAs(null, "/v1/webhooks/sandbox").post(Entity.json("{}"));

    assertThat(response.getHeaderString("WWW-Authenticate")).isNull();
    assertThat(status(response)).isEqualTo(404);
  }

  /** The status, with the connection given back to the pool. */
  private static int status(Response response) {
    try (response) {
      response.readEntity(String.class);
      return response.getStatus();
    }
  }
}
