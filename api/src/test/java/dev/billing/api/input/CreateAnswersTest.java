package dev.billing.api.input;

import static dev.billing.api.support.ApiRequests.assertProblem;
import static dev.billing.api.support.ApiRequests.body;
import static dev.billing.api.support.ApiRequests.newAccount;
import static dev.billing.api.support.ApiRequests.subscriptionBody;
import static dev.billing.api.support.ApiRequests.subscriptionsPath;
import static dev.billing.api.support.ApiRequests.with;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.support.ResourceTestSupport;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The whole problem body a create answers where BadInputTest checks one field at a time: every
 * invalid field at once in its fixed order, which input wins when the header is bad too, and the
 * edges of "required" and of stripping. The contract of docs/api.md, whichever mechanism checks.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class CreateAnswersTest {

  static final ResourceTestSupport API = ResourceTestSupport.start();

  @Test
  void everyInvalidFieldIsReportedInOneFixedOrder() {
    Map<String, Object> request = subscriptionBody();
    request.put("sku", "pro#1");
    request.put("currency", "ABC");
    request.put("email", "ana.example.com");
    request.put("paymentMethod", "visa");
    request.put("term", "WEEKLY");
    request.put("timeZone", "Nowhere/Special");
    request.put("reminderDaysBefore", 29);
    request.put("billingDay", 0);
    request.put("startDate", "2026-02-30");
    request.put("trialDays", 731);
    request.put("locale", "xx-ZZ");

    JsonNode problem = invalid(API.createSubscription(newAccount(), request, "all-at-once"));

    assertThat(problem.get("detail").asText()).isEqualTo("11 inputs are invalid; see errors.");
    assertThat(problem.get("errors").toString())
        .isEqualTo(
            "["
                + error("sku", "sku must be 1 to 64 letters, digits, '.', '_' or '-'")
                + ","
                + error("currency", "currency must be an ISO 4217 code such as \\\"USD\\\"")
                + ","
                + error("email", "email must be an address such as \\\"ana@example.com\\\"")
                + ","
                + error(
                    "paymentMethod",
                    "paymentMethod must be a payment method token such as \\\"pm_card_visa\\\"")
                + ","
                + error("term", "term must be MONTHLY or YEARLY")
                + ","
                + error("timeZone", "timeZone must be an IANA zone id such as \\\"Europe/Paris\\\"")
                + ","
                + error("reminderDaysBefore", "reminderDaysBefore must be between 0 and 28")
                + ","
                + error("billingDay", "billingDay must be between 1 and 31")
                + ","
                + error("startDate", "startDate must be a date such as \\\"2026-01-31\\\"")
                + ","
                + error("trialDays", "trialDays must be between 0 and 730")
                + ","
                + error(
                    "locale",
                    "locale must be a BCP 47 language tag such as \\\"en-US\\\" or \\\"fr-CA\\\"")
                + "]");
  }

  @Test
  void requiredFieldsAndTheAmountAreReportedTogether() {
    Map<String, Object> request = subscriptionBody();
    request.remove("sku");
    request.put("amount", "9.999");
    request.put("email", " ");
    request.put("trialDays", -1);

    JsonNode problem = invalid(API.createSubscription(newAccount(), request, "required"));

    assertThat(problem.get("detail").asText()).isEqualTo("4 inputs are invalid; see errors.");
    assertThat(problem.get("errors").toString())
        .isEqualTo(
            "["
                + error("sku", "sku is required")
                + ","
                + error("amount", "amount has more decimals than USD allows (2)")
                + ","
                + error("email", "email is required")
                + ","
                + error("trialDays", "trialDays must be between 0 and 730")
                + "]");
  }

  @Test
  void aBadIdempotencyKeyIsReportedAloneBeforeTheBody() {
    JsonNode problem =
        invalid(
            API.createSubscription(
                newAccount(), with(subscriptionBody(), "sku", "pro#1"), "\u00e9t\u00e9"));

    assertThat(problem.get("detail").asText())
        .isEqualTo("Idempotency-Key must be 1 to 255 printable ASCII characters");
    assertThat(problem.get("errors").toString())
        .isEqualTo(
            "["
                + error(
                    "Idempotency-Key",
                    "Idempotency-Key must be 1 to 255 printable ASCII characters")
                + "]");
  }

  @Test
  void anEmptyBodyIsReportedForTheBodyAsAWhole() {
    JsonNode problem = invalid(API.postJson(subscriptionsPath(newAccount()), "", "empty"));

    assertThat(problem.get("errors").toString())
        .isEqualTo(
            "[{\"field\":null,\"message\":\"a JSON object with the subscription is required\"}]");
  }

  @Test
  void blankMeansRequiredAsStringIsBlankSaysIt() {
    assertOne(with(subscriptionBody(), "sku", "\u2003"), "sku", "sku is required");
    assertOne(with(subscriptionBody(), "timeZone", "  "), "timeZone", "timeZone is required");
    assertOne(with(subscriptionBody(), "term", ""), "term", "term must be MONTHLY or YEARLY");
    assertOne(
        with(subscriptionBody(), "term", " MONTHLY "), "term", "term must be MONTHLY or YEARLY");
    assertOne(
        with(subscriptionBody(), "term", "monthly"), "term", "term must be MONTHLY or YEARLY");
    assertOne(
        with(subscriptionBody(), "locale", " "),
        "locale",
        "locale must be a BCP 47 language tag such as \"en-US\" or \"fr-CA\"");
    assertOne(
        with(subscriptionBody(), "paymentMethod", "4242424242424241"),
        "paymentMethod",
        "paymentMethod must be a payment method token such as \"pm_card_visa\", never a card number");
  }

  @Test
  void valuesButTheTermAreCheckedStripped() {
    Map<String, Object> request = subscriptionBody();
    request.replaceAll((field, value) -> value instanceof String text ? " " + text + " " : value);
    request.put("timeZone", " Europe/Paris ");
    request.put("startDate", " 2026-03-20 ");
    request.put("locale", " fr-CA ");
    request.put("term", "MONTHLY");

    Response response = API.createSubscription(newAccount(), request, "padded");

    assertThat(response.getStatus()).as("%s", body(response)).isEqualTo(201);
  }

  private static void assertOne(Map<String, Object> request, String field, String message) {
    JsonNode problem = invalid(API.createSubscription(newAccount(), request, "one-" + field));
    assertThat(problem.get("detail").asText()).isEqualTo(message);
    assertThat(problem.get("errors").toString())
        .isEqualTo("[" + error(field, message.replace("\"", "\\\"")) + "]");
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
}
