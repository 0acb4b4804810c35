package dev.billing.api.events;

import static dev.billing.api.support.ApiRequests.assertInvalidField;
import static dev.billing.api.support.ApiRequests.assertProblem;
import static dev.billing.api.support.ApiRequests.body;
import static dev.billing.api.support.ApiRequests.newAccount;
import static dev.billing.api.support.ApiRequests.subscriptionBody;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.support.ResourceTestSupport;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** /v1/events: the outbox read by operators and, for their own account, by account keys. */
@ExtendWith(DropwizardExtensionsSupport.class)
class EventResourceTest {
  static final ResourceTestSupport API = ResourceTestSupport.start();
  private static final String PATH = "/v1/events";

  /** An account with one subscription, created then cancelled: two events. */
  private record Account(String id, String subscriptionId) {}

  private static Account accountWithACancelledSubscription() {
    String account = newAccount();
    String sub = API.created(account, subscriptionBody()).get("subscriptionId").asText();
    API.stack().cancelled(account, sub);
    return new Account(account, sub);
  }

  private static List<String> ids(JsonNode page) {
    List<String> ids = new ArrayList<>();
    page.get("items").forEach(e -> ids.add(e.get("id").asText()));
    return ids;
  }

  @Test
  void anOperatorReadsASubscriptionsEventsNewestFirst() {
    Account a = accountWithACancelledSubscription();

    JsonNode page = body(API.get(PATH + "?subscriptionId=" + a.subscriptionId()));

    assertThat(ids(page))
        .containsExactly(
            "evt_" + a.subscriptionId() + "_2_0", "evt_" + a.subscriptionId() + "_1_0");
    assertThat(page.get("nextPageToken").isNull()).isTrue();
    JsonNode canceled = page.get("items").get(0);
    assertThat(canceled.get("type").asText()).isEqualTo("subscription.canceled");
    assertThat(canceled.get("createdAt").asText()).endsWith("Z");
    assertThat(canceled.get("data").get("subscription").get("status").asText())
        .isEqualTo("CANCELLED");
    assertThat(canceled.get("data").get("subscription").get("accountId").asText())
        .isEqualTo(a.id());
    assertThat(canceled.get("data").get("period").isNull()).isTrue();
    assertThat(canceled.get("data").get("receipt").isNull()).isTrue();
    assertThat(page.get("items").get(1).get("data").get("subscription").get("status").asText())
        .isEqualTo("INCOMPLETE");

    JsonNode one = body(API.get(PATH + "/evt_" + a.subscriptionId() + "_2_0"));
    assertThat(one).isEqualTo(canceled);
    assertThat(one.fieldNames()).toIterable().containsExactly("id", "type", "createdAt", "data");
  }

  @Test
  void filtersCombineAndPagesFollowEachOther() {
    Account a = accountWithACancelledSubscription();
    String second = API.created(a.id(), subscriptionBody()).get("subscriptionId").asText();

    List<String> listed = new ArrayList<>();
    String token = null;
    do {
      JsonNode page =
          body(
              API.get(
                  PATH
                      + "?accountId="
                      + a.id()
                      + "&limit=2"
                      + (token == null ? "" : "&pageToken=" + token)));
      assertThat(page.get("items").size()).isLessThanOrEqualTo(2);
      listed.addAll(ids(page));
      token = page.get("nextPageToken").isNull() ? null : page.get("nextPageToken").asText();
    } while (token != null);
    assertThat(listed)
        .containsExactlyInAnyOrder(
            "evt_" + a.subscriptionId() + "_1_0",
            "evt_" + a.subscriptionId() + "_2_0",
            "evt_" + second + "_1_0");

    assertThat(ids(body(API.get(PATH + "?accountId=" + a.id() + "&type=subscription.canceled"))))
        .containsExactly("evt_" + a.subscriptionId() + "_2_0");
    assertThat(
            ids(
                body(
                    API.get(
                        PATH
                            + "?subscriptionId="
                            + a.subscriptionId()
                            + "&type=subscription.created"))))
        .containsExactly("evt_" + a.subscriptionId() + "_1_0");
    assertThat(ids(body(API.get(PATH + "?type=subscription.canceled"))))
        .contains("evt_" + a.subscriptionId() + "_2_0")
        .doesNotContain("evt_" + second + "_1_0");
    // A subscription of another account than the one named: nothing.
    assertThat(
            ids(body(API.get(PATH + "?accountId=" + newAccount() + "&subscriptionId=" + second))))
        .isEmpty();
  }

  @Test
  void anAccountKeyReadsItsOwnAccountOnly() {
    Account mine = accountWithACancelledSubscription();
    Account theirs = accountWithACancelledSubscription();
    String key = API.accountKey(mine.id());

    JsonNode own = body(API.requestAs(key, PATH).get());
    assertThat(ids(own))
        .containsExactly(
            "evt_" + mine.subscriptionId() + "_2_0", "evt_" + mine.subscriptionId() + "_1_0");
    assertThat(ids(body(API.requestAs(key, PATH + "?type=subscription.created").get())))
        .containsExactly("evt_" + mine.subscriptionId() + "_1_0");
    assertThat(
            body(API.requestAs(key, PATH + "/evt_" + mine.subscriptionId() + "_1_0").get())
                .get("type")
                .asText())
        .isEqualTo("subscription.created");

    assertProblem(API.requestAs(key, PATH + "?accountId=" + theirs.id()).get(), 404);
    assertProblem(API.requestAs(key, PATH + "/evt_" + theirs.subscriptionId() + "_1_0").get(), 404);
    // Another account's subscription, asked by its id alone: confined to the key's account.
    assertThat(
            ids(
                body(
                    API.requestAs(key, PATH + "?subscriptionId=" + theirs.subscriptionId()).get())))
        .isEmpty();
    assertThat(ids(body(API.requestAs(key, PATH + "?accountId=" + mine.id() + "&limit=1").get())))
        .containsExactly("evt_" + mine.subscriptionId() + "_2_0");
  }

  @Test
  void badFiltersAreA400NamingTheField() {
    assertThat(assertInvalidField(API.get(PATH + "?type=payment.paid"), "type"))
        .contains("payment.failed");
    assertInvalidField(API.get(PATH + "?type=subscription.revived"), "type");
    assertInvalidField(API.get(PATH + "?accountId=a%23b"), "accountId");
    assertInvalidField(API.get(PATH + "?subscriptionId=" + "s".repeat(65)), "subscriptionId");
    assertInvalidField(API.get(PATH + "?accountId=acc-1&limit=0"), "limit");
    assertInvalidField(API.get(PATH + "?accountId=acc-1&pageToken=forged.token"), "pageToken");
    // An operator names what to list: any of the three will do.
    assertThat(assertProblem(API.get(PATH), 400).get("errors").findValuesAsText("field"))
        .containsExactly("type", "accountId", "subscriptionId");

    JsonNode both = assertProblem(API.get(PATH + "?type=nope&subscriptionId=a%20b"), 400);
    assertThat(both.get("errors").findValuesAsText("field"))
        .containsExactly("type", "subscriptionId");
    // A token of one query does not continue another.
    Account a = accountWithACancelledSubscription();
    String token =
        body(API.get(PATH + "?subscriptionId=" + a.subscriptionId() + "&limit=1"))
            .get("nextPageToken")
            .asText();
    assertInvalidField(
        API.get(PATH + "?accountId=" + a.id() + "&limit=1&pageToken=" + token), "pageToken");
  }

  @Test
  void anUnknownEventIs404AndACredentialIsNeeded() {
    assertProblem(API.get(PATH + "/evt_sub_nobody_1_0"), 404);
    assertProblem(API.get(PATH + "/not-an-event"), 404);
    assertInvalidField(API.get(PATH + "/evt%23x"), "eventId");
    assertProblem(API.requestAs(null, PATH + "?accountId=acc-1").get(), 401);
    assertProblem(API.requestAs(null, PATH + "/evt_sub_nobody_1_0").get(), 401);
  }
}
