package dev.billing.api;

import static dev.billing.api.support.ApiRequests.assertInvalidField;
import static dev.billing.api.support.ApiRequests.assertProblem;
import static dev.billing.api.support.ApiRequests.body;
import static dev.billing.api.support.ApiRequests.newAccount;
import static dev.billing.api.support.ApiRequests.subscriptionBody;
import static dev.billing.api.support.ApiRequests.subscriptionPath;
import static dev.billing.api.support.ApiRequests.subscriptionsPath;
import static dev.billing.api.support.ApiRequests.with;
import static dev.billing.api.support.ApiRequests.without;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.input.StrictJsonBodies;
import dev.billing.api.subscriptions.SubscriptionIds;
import dev.billing.api.support.ApiRequests;
import dev.billing.api.support.JsonLimitsProbe;
import dev.billing.api.support.ResourceTestSupport;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every class of bad input: 400 (or its own status) as problem+json naming the input, and no write
 * (nothing in the store, no workflow started, no update sent).
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class BadInputTest {

  static final ResourceTestSupport API = ResourceTestSupport.start();

  static Stream<Arguments> invalidFields() {
    Map<String, Object> valid = subscriptionBody();
    return Stream.of(
        arguments(
            "unknown currency",
            with(valid, "currency", "ABC"),
            "currency",
            "currency must be an ISO 4217 code such as \"USD\""),
        arguments(
            "currency without minor unit",
            with(valid, "currency", "XAU"),
            "currency",
            "currency XAU has no minor unit and cannot be billed"),
        arguments(
            "zero amount",
            with(valid, "amount", "0.00"),
            "amount",
            "amount must be greater than zero"),
        arguments(
            "negative amount",
            with(valid, "amount", "-5"),
            "amount",
            "amount must be greater than zero"),
        arguments(
            "three decimals in USD",
            with(valid, "amount", "9.999"),
            "amount",
            "amount has more decimals than USD allows (2)"),
        arguments(
            "decimals in JPY",
            with(with(valid, "currency", "JPY"), "amount", "1.5"),
            "amount",
            "amount has more decimals than JPY allows (0)"),
        arguments(
            "amount not a number",
            with(valid, "amount", "nine"),
            "amount",
            "amount must be a decimal number such as \"9.99\""),
        arguments(
            "amount too large",
            with(valid, "amount", "1000000000.01"),
            "amount",
            "amount must not exceed 1000000000"),
        arguments(
            "billing day 0",
            with(valid, "billingDay", 0),
            "billingDay",
            "billingDay must be between 1 and 31"),
        arguments(
            "billing day 32",
            with(valid, "billingDay", 32),
            "billingDay",
            "billingDay must be between 1 and 31"),
        arguments(
            "unknown time zone",
            with(valid, "timeZone", "Mars/Olympus"),
            "timeZone",
            "timeZone must be an IANA zone id such as \"Europe/Paris\""),
        arguments(
            "reminder 29 days before",
            with(valid, "reminderDaysBefore", 29),
            "reminderDaysBefore",
            "reminderDaysBefore must be between 0 and 28"),
        arguments(
            "negative reminder",
            with(valid, "reminderDaysBefore", -1),
            "reminderDaysBefore",
            "reminderDaysBefore must be between 0 and 28"),
        arguments(
            "weekly term", with(valid, "term", "WEEKLY"), "term", "term must be MONTHLY or YEARLY"),
        arguments(
            "impossible start date",
            with(valid, "startDate", "2026-02-30"),
            "startDate",
            "startDate must be a date such as \"2026-01-31\""),
        arguments(
            "start date in the past",
            with(valid, "startDate", "2026-03-09"),
            "startDate",
            "startDate must not be before today (2026-03-10 in UTC)"),
        arguments(
            "start date more than three years ahead",
            with(valid, "startDate", "2029-03-11"),
            "startDate",
            "startDate must be at most three years after today (2029-03-10 in UTC)"),
        arguments(
            "start date in year 9999",
            with(valid, "startDate", "9999-12-31"),
            "startDate",
            "startDate must be at most three years after today (2029-03-10 in UTC)"),
        arguments(
            "start date in the past there",
            with(with(valid, "startDate", "2026-03-10"), "timeZone", "Pacific/Kiritimati"),
            "startDate",
            "startDate must not be before today (2026-03-11 in Pacific/Kiritimati)"),
        arguments(
            "card number with spaces",
            with(valid, "paymentMethod", "4242 4242 4242 4242"),
            "paymentMethod",
            "paymentMethod must never carry a card or bank account number; send a payment method token such as \"pm_card_visa\""),
        arguments(
            "card number with dashes",
            with(valid, "paymentMethod", "5555-5555-5555-4444"),
            "paymentMethod",
            "paymentMethod must never carry a card or bank account number; send a payment method token such as \"pm_card_visa\""),
        arguments(
            "card number digits only",
            with(valid, "paymentMethod", "378282246310005"),
            "paymentMethod",
            "paymentMethod must never carry a card or bank account number; send a payment method token such as \"pm_card_visa\""),
        arguments(
            "not a token",
            with(valid, "paymentMethod", "visa"),
            "paymentMethod",
            "paymentMethod must be a payment method token such as \"pm_card_visa\""),
        arguments(
            "bad email",
            with(valid, "email", "ana.example.com"),
            "email",
            "email must be an address such as \"ana@example.com\""),
        arguments(
            "email with a display name",
            with(valid, "email", "Ana <ana@example.com>"),
            "email",
            "email must be an address such as \"ana@example.com\", without spaces, quotes or non-ASCII characters"),
        arguments(
            "email with a header injected",
            with(valid, "email", "ana@example.com\r\nBcc: eve@example.com"),
            "email",
            "email must be an address such as \"ana@example.com\", without spaces, quotes or non-ASCII characters"),
        arguments(
            "two emails",
            with(valid, "email", "ana@example.com,bo@example.com"),
            "email",
            "email must be an address such as \"ana@example.com\""),
        arguments(
            "email on an IP address",
            with(valid, "email", "ana@[192.168.0.1]"),
            "email",
            "email must be an address such as \"ana@example.com\": the part after '@' must be a domain name such as example.com"),
        arguments(
            "email too long",
            with(valid, "email", "a".repeat(250) + "@example.com"),
            "email",
            "email must be at most 254 characters"),
        arguments(
            "sku with a key separator",
            with(valid, "sku", "pro#1"),
            "sku",
            "sku must be 1 to 64 letters, digits, '.', '_' or '-'"),
        arguments("missing sku", without(valid, "sku"), "sku", "sku is required"),
        arguments("missing amount", without(valid, "amount"), "amount", "amount is required"),
        arguments(
            "missing currency", without(valid, "currency"), "currency", "currency is required"),
        arguments("missing email", without(valid, "email"), "email", "email is required"),
        arguments(
            "missing payment method",
            without(valid, "paymentMethod"),
            "paymentMethod",
            "paymentMethod is required"),
        arguments("blank sku", with(valid, "sku", "  "), "sku", "sku is required"),
        arguments(
            "billing day as text",
            with(valid, "billingDay", "fifteen"),
            "billingDay",
            "billingDay must be an integer"),
        arguments(
            "billing day as decimal",
            with(valid, "billingDay", 1.5),
            "billingDay",
            "billingDay must be an integer"),
        arguments(
            "amount as a JSON number",
            with(valid, "amount", 9.99),
            "amount",
            "amount must be a string"),
        arguments(
            "sku as an object",
            with(valid, "sku", Map.of("name", "pro")),
            "sku",
            "sku must be a string"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidFields")
  void anInvalidFieldIsNamedAndNothingIsWritten(
      String name, Map<String, Object> request, String field, String message) {
    String account = newAccount();
    String key = "bad-input-" + name.replace(' ', '-');

    Response response = API.createSubscription(account, request, key);

    assertThat(assertInvalidField(response, field)).isEqualTo(message);
    API.assertNothingWritten(account, SubscriptionIds.fromIdempotencyKey(account, key));
  }

  static Stream<Arguments> bodiesBreakingTheJsonRules() {
    String valid =
        "\"sku\":\"pro\",\"amount\":\"9.99\",\"currency\":\"USD\",\"email\":\"ana@example.com\","
            + "\"paymentMethod\":\"pm_card_visa\"";
    return Stream.of(
        arguments(
            "explicit null",
            "{" + valid + ",\"term\":null}",
            "term",
            "term must not be null; leave it out to use its default"),
        arguments(
            "duplicated field",
            "{" + valid + ",\"sku\":\"other\"}",
            "sku",
            "sku appears more than once"),
        arguments(
            "integer out of range",
            "{" + valid + ",\"billingDay\":99999999999999999999}",
            "billingDay",
            "billingDay is out of range for an integer"),
        arguments(
            "huge exponent",
            "{" + valid + ",\"billingDay\":1e400}",
            "billingDay",
            "billingDay must be an integer"),
        arguments(
            "number of 2000 digits",
            "{" + valid + ",\"billingDay\":" + "9".repeat(2000) + "}",
            "billingDay",
            "billingDay exceeds the JSON limits: numbers of at most 1000 digits"),
        arguments(
            "field name of 60000 characters",
            "{\"" + "s3cr3t".repeat(10_000) + "\":1," + valid + "}",
            null,
            "a field name in the request body exceeds the JSON limits: field names of at most 50000 characters"),
        arguments(
            "string of 5000 characters",
            "{" + valid + ",\"timeZone\":\"" + "x".repeat(5000) + "\"}",
            "timeZone",
            "timeZone must be at most 4096 characters"),
        arguments(
            "nested 20 deep",
            "{" + valid + ",\"term\":" + "[".repeat(20) + "]".repeat(20) + "}",
            "term" + "[0]".repeat(15),
            "term" + "[0]".repeat(15) + " is nested more than 16 levels deep"),
        arguments(
            "card number in another field",
            "{" + valid.replace("ana@example.com", "4242424242424242@example.com") + "}",
            "email",
            "email must never carry a card or bank account number; send a payment method token such as \"pm_card_visa\""),
        arguments(
            "card number as a JSON number",
            "{" + valid + ",\"billingDay\":4242424242424242}",
            "billingDay",
            "billingDay must never carry a card number; send a payment method token such as \"pm_card_visa\""),
        arguments(
            "IBAN",
            "{" + valid.replace("\"pro\"", "\"GB82 WEST 1234 5698 7654 32\"") + "}",
            "sku",
            "sku must never carry a card or bank account number; send a payment method token such as \"pm_card_visa\""),
        arguments("unquoted field name", "{sku:\"pro\"}", null, "must be a valid JSON document"),
        arguments("null body", "null", null, "a JSON object with the subscription is required"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bodiesBreakingTheJsonRules")
  void aBodyBreakingTheJsonRulesIsNamedAndNothingIsWritten(
      String name, String json, String field, String message) {
    String account = newAccount();
    String key = "json-" + name.replace(' ', '-');

    JsonNode problem = assertProblem(API.postJson(subscriptionsPath(account), json, key), 400);

    assertThat(problem.get("errors")).as("%s", problem).hasSize(1);
    JsonNode error = problem.get("errors").get(0);
    assertThat(error.get("field").isNull() ? null : error.get("field").asText()).isEqualTo(field);
    assertThat(error.get("message").asText()).isEqualTo(message);
    assertThat(problem.toString())
        .doesNotContain("4242424242424242")
        .doesNotContain("5698")
        .doesNotContain("s3cr3t");
    API.assertNothingWritten(account, SubscriptionIds.fromIdempotencyKey(account, key));
  }

  @Test
  void aBodyOverTheLimitIsA413() {
    String account = newAccount();
    String json = "{\"sku\":\"" + "x".repeat(StrictJsonBodies.MAX_BODY_BYTES) + "\"}";

    JsonNode problem = assertProblem(API.postJson(subscriptionsPath(account), json, "huge"), 413);

    assertThat(problem.get("type").asText())
        .isEqualTo("https://billing.dev/problems/payload-too-large");
    API.assertNothingWritten(account, SubscriptionIds.fromIdempotencyKey(account, "huge"));
  }

  @Test
  void aCardNumberInACancelReasonIsRefusedAndTheSubscriptionIsUnchanged() {
    String account = newAccount();
    String id = API.created(account, subscriptionBody()).get("subscriptionId").asText();

    Response response =
        API.request(subscriptionPath(account, id) + "/cancel")
            .post(Entity.json("{\"reason\":\"charged twice on 4000 0566 5566 5556\"}"));

    assertThat(assertInvalidField(response, "reason")).contains("must never carry a card");
    assertThat(body(API.get(subscriptionPath(account, id))).get("status").asText())
        .isEqualTo("INCOMPLETE");
    assertThat(API.stack().workflows.sentTo(id)).as("updates sent").isEmpty();
  }

  @Test
  void aCardNumberIsNeverEchoed() {
    String account = newAccount();

    Response response =
        API.createSubscription(
            account, with(subscriptionBody(), "paymentMethod", "4000 0566 5566 5556"), "card");
    String text = response.readEntity(String.class);

    assertThat(response.getStatus()).isEqualTo(400);
    assertThat(text).doesNotContain("4000").doesNotContain("5556");
    API.assertNothingWritten(account, SubscriptionIds.fromIdempotencyKey(account, "card"));
  }

  @Test
  void everyInvalidFieldIsReportedAtOnce() {
    String account = newAccount();
    Map<String, Object> request =
        with(
            with(with(subscriptionBody(), "currency", "ABC"), "billingDay", 0),
            "timeZone",
            "Nowhere/Special");

    JsonNode problem = assertProblem(API.createSubscription(account, request, "many"), 400);

    assertThat(
            StreamSupport.stream(problem.get("errors").spliterator(), false)
                .map(e -> e.get("field").asText())
                .toList())
        .containsExactlyInAnyOrder("currency", "timeZone", "billingDay");
    API.assertNothingWritten(account, SubscriptionIds.fromIdempotencyKey(account, "many"));
  }

  @Test
  void anUnknownFieldIsNamed() {
    String account = newAccount();

    Response response =
        API.createSubscription(account, with(subscriptionBody(), "colour", "blue"), "unknown");

    assertThat(assertInvalidField(response, "colour"))
        .isEqualTo(
            "colour is not a field of this request; "
                + "allowed fields: amount, billingDay, currency, email, locale, paymentMethod, reminderDaysBefore, "
                + "sku, startDate, term, timeZone, trialDays");
    API.assertNothingWritten(account, SubscriptionIds.fromIdempotencyKey(account, "unknown"));
  }

  @Test
  void malformedJsonIsRejected() {
    String account = newAccount();

    Response response =
        API.postJson(subscriptionsPath(account), "{\"sku\": \"pro\", ", "malformed");

    JsonNode problem = assertProblem(response, 400);
    assertThat(problem.get("type").asText())
        .isEqualTo("https://billing.dev/problems/malformed-json");
    API.assertNothingWritten(account, SubscriptionIds.fromIdempotencyKey(account, "malformed"));
  }

  @Test
  void aBodyJacksonCannotDecodeIsMalformedJson() {
    String account = newAccount();
    // Read as UTF-32 for its three leading zero bytes, then a character above U+10FFFF.
    byte[] body = {0, 0, 0, '{', 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff};

    JsonNode problem =
        assertProblem(
            API.request(subscriptionsPath(account))
                .header("Idempotency-Key", "utf32")
                .post(Entity.entity(body, MediaType.APPLICATION_JSON_TYPE)),
            400);

    assertThat(problem.get("type").asText())
        .isEqualTo("https://billing.dev/problems/malformed-json");
    assertThat(problem.get("errors").get(0).get("field").isNull()).isTrue();
    API.assertNothingWritten(account, SubscriptionIds.fromIdempotencyKey(account, "utf32"));
  }

  @Test
  void aBodyThatIsNotAnObjectIsRejected() {
    String account = newAccount();

    for (String notAnObject : List.of("[]", "\"pro\"", "42", "{} {}")) {
      JsonNode problem =
          assertProblem(API.postJson(subscriptionsPath(account), notAnObject, "array"), 400);
      assertThat(problem.get("errors").get(0).get("field").isNull()).isTrue();
    }
    API.assertNothingWritten(account, SubscriptionIds.fromIdempotencyKey(account, "array"));
  }

  @Test
  void anEmptyBodyIsRejected() {
    String account = newAccount();

    JsonNode problem = assertProblem(API.postJson(subscriptionsPath(account), "", "empty"), 400);

    assertThat(problem.get("errors").get(0).get("field").isNull()).isTrue();
    API.assertNothingWritten(account, SubscriptionIds.fromIdempotencyKey(account, "empty"));
  }

  @Test
  void aBadAccountIdInThePathIsRejected() {
    Response create = API.createSubscription("acc$1", subscriptionBody(), null);
    assertThat(assertInvalidField(create, "accountId"))
        .isEqualTo("accountId must match ^[A-Za-z0-9_-]{1,64}$");

    assertInvalidField(API.get(subscriptionsPath("a".repeat(65))), "accountId");
    assertInvalidField(API.get("/v1/accounts/acc.1/receipts"), "accountId");
  }

  @Test
  void aBadSubscriptionIdInThePathIsRejected() {
    String account = newAccount();

    assertInvalidField(API.get(subscriptionPath(account, "sub$1")), "subscriptionId");
    assertInvalidField(
        API.get(subscriptionPath(account, "s".repeat(65)) + "/history"), "subscriptionId");
    assertInvalidField(
        API.request(subscriptionPath(account, "sub$1") + "/cancel").post(Entity.json("{}")),
        "subscriptionId");
  }

  @Test
  void anInvalidIdempotencyKeyIsRejected() {
    String account = newAccount();

    Response response = API.createSubscription(account, subscriptionBody(), "k".repeat(256));

    assertInvalidField(response, "Idempotency-Key");
    assertThat(
            API.stack()
                .store
                .getSubscriptionsByAccount(account, dev.billing.store.PageRequest.first(10))
                .items())
        .isEmpty();
  }

  @Test
  void dueListsNeedAValidDate() {
    assertThat(assertInvalidField(API.get("/v1/billing/due-payments"), "date"))
        .isEqualTo("date is required, e.g. ?date=2026-01-31");
    assertInvalidField(API.get("/v1/billing/due-payments?date=2026-13-01"), "date");
    assertInvalidField(API.get("/v1/billing/due-reminders?date=tomorrow"), "date");
    assertInvalidField(API.get("/v1/billing/due-reminders?date=2026-02-29"), "date");
  }

  @Test
  void aTamperedPageTokenIsRejectedOnEveryList() {
    String forged = "eyJsYXN0IjoiQUNDI3gifQ.c2lnbmF0dXJl";

    assertInvalidField(
        API.get(subscriptionsPath(newAccount()) + "?pageToken=" + forged), "pageToken");
    assertInvalidField(
        API.get("/v1/accounts/" + newAccount() + "/receipts?pageToken=" + forged), "pageToken");
    assertInvalidField(
        API.get("/v1/billing/due-payments?date=2026-04-01&pageToken=" + forged), "pageToken");
  }

  @Test
  void aTooLongCancelReasonIsRejectedAndTheSubscriptionIsUnchanged() {
    String account = newAccount();
    String id = API.created(account, subscriptionBody()).get("subscriptionId").asText();

    Response response =
        API.request(subscriptionPath(account, id) + "/cancel")
            .post(Entity.json("{\"reason\":\"" + "x".repeat(501) + "\"}"));

    assertInvalidField(response, "reason");
    assertThat(body(API.get(subscriptionPath(account, id))).get("status").asText())
        .isEqualTo("INCOMPLETE");
    assertThat(API.stack().workflows.sentTo(id)).as("updates sent").isEmpty();
  }

  @Test
  void anUnknownFieldInTheCancelBodyIsRejectedAndTheSubscriptionIsUnchanged() {
    String account = newAccount();
    String id = API.created(account, subscriptionBody()).get("subscriptionId").asText();

    Response response =
        API.request(subscriptionPath(account, id) + "/cancel")
            .post(Entity.json("{\"reasons\":\"typo\"}"));

    assertInvalidField(response, "reasons");
    assertThat(body(API.get(subscriptionPath(account, id))).get("status").asText())
        .isEqualTo("INCOMPLETE");
    assertThat(API.stack().workflows.sentTo(id)).as("updates sent").isEmpty();
  }

  @Test
  void anUnknownRouteIsAProblem() {
    JsonNode problem = assertProblem(API.get("/v1/nothing-here"), 404);

    assertThat(problem.get("type").asText()).isEqualTo("https://billing.dev/problems/not-found");
  }

  @Test
  void anUnsupportedMethodKeepsItsStatus() {
    Response response = API.request(subscriptionsPath(newAccount())).delete();

    assertProblem(response, 405);
    assertThat(response.getHeaderString("Allow")).contains("GET").contains("POST");
  }

  @Test
  void aBodyThatIsNotJsonKeepsItsStatus() {
    String account = newAccount();

    Response response =
        API.request(subscriptionsPath(account))
            .post(Entity.entity("sku=pro", MediaType.TEXT_PLAIN_TYPE));

    assertProblem(response, 415);
    assertThat(
            API.stack()
                .store
                .getSubscriptionsByAccount(account, dev.billing.store.PageRequest.first(10))
                .items())
        .isEmpty();
  }

  /** JSON refused for Jackson's limits rather than its syntax or shape (a test-only reader). */
  @Test
  void aBodyOverJacksonsLimitsIsA400ThatDoesNotEchoIt() {
    String secret = "s3cr3t".repeat(JsonLimitsProbe.MAX_STRING);

    JsonNode problem =
        assertProblem(
            API.postJson("/test/json-limits/strict", "{\"note\":\"" + secret + "\"}", null), 400);

    assertThat(problem.get("type").asText())
        .isEqualTo("https://billing.dev/problems/invalid-request");
    // Jackson's constraint exceptions do not carry their parser, so the body as a whole is named.
    assertThat(problem.get("detail").asText())
        .isEqualTo("the request body exceeds the JSON limits of this API");
    assertThat(problem.get("errors")).hasSize(1);
    assertThat(problem.get("errors").get(0).get("field").isNull()).isTrue();
    assertThat(problem.toString()).doesNotContain("s3cr3t");
  }

  @Test
  void aNumberOutOfItsTypesRangeIsA400() {
    JsonNode problem =
        assertProblem(API.postJson("/test/json-limits/integer", "99999999999999999999", null), 400);

    assertThat(problem.get("detail").asText()).isEqualTo("a number is out of range");
    assertThat(problem.get("errors").get(0).get("field").isNull()).isTrue();
  }

  @Test
  void anUnexpectedFailureIsA500WithoutInternalDetails() {
    Response response = API.get("/test/failure");
    String text = response.readEntity(String.class);

    assertThat(response.getStatus()).isEqualTo(500);
    assertThat(response.getMediaType().toString()).isEqualTo(ApiRequests.PROBLEM_JSON);
    JsonNode problem = ApiRequests.parse(text);
    assertThat(problem.get("type").asText())
        .isEqualTo("https://billing.dev/problems/internal-error");
    assertThat(problem.get("detail").asText())
        .matches("The request could not be completed\\. Reference: [0-9a-f-]{36}\\.");
    assertThat(text)
        .doesNotContain("db-7")
        .doesNotContain("IllegalStateException")
        .doesNotContain("at dev.");
  }
}
