package dev.billing.api.fuzz;

import static dev.billing.api.fuzz.HostileValues.quoted;

import dev.billing.api.auth.keys.ApiKeyResource;
import dev.billing.api.endpoints.WebhookEndpointResource;
import dev.billing.api.ops.StartReconciliationRequest;
import dev.billing.api.resources.CancelSubscriptionRequest;
import dev.billing.api.resources.ChangeBillingDayRequest;
import dev.billing.api.resources.ChangeCustomerRequest;
import dev.billing.api.resources.ChangePaymentMethodRequest;
import dev.billing.api.resources.ChangePlanRequest;
import dev.billing.api.resources.PauseSubscriptionRequest;
import dev.billing.api.resources.ReactivateSubscriptionRequest;
import dev.billing.api.resources.RefundPeriodRequest;
import dev.billing.api.resources.WaivePeriodRequest;
import dev.billing.api.subscriptions.CreateSubscriptionRequest;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A valid request to each endpoint, from which the fuzzer changes one thing. Bodies of the types
 * below are valid examples; any other record gets a value of the right JSON type per component
 * (maybe not valid for the endpoint: then the test only asks its 400s to name some field). Add an
 * example here for a new request type to get the stricter check.
 */
final class Baselines {
  private Baselines() {}

  /** The ids and values a valid request uses. */
  record Fixture(String account, String subscriptionId, String keyId, String otherAccount) {}

  /** One body field: its name and raw JSON value. */
  record Field(String name, String json) {}

  private static final Map<Class<?>, Function<Fixture, List<Field>>> EXAMPLES =
      Map.ofEntries(
          Map.entry(
              PauseSubscriptionRequest.class,
              f -> List.of(new Field("cycles", "1"), new Field("reason", quoted("fuzzing")))),
          Map.entry(
              ChangePlanRequest.class,
              f ->
                  List.of(
                      new Field("sku", quoted("fuzz-team")),
                      new Field("amount", quoted("19.99")),
                      new Field("currency", quoted("USD")),
                      new Field("effective", quoted("periodEnd")))),
          Map.entry(ChangeBillingDayRequest.class, f -> List.of(new Field("billingDay", "15"))),
          Map.entry(
              ChangeCustomerRequest.class,
              f ->
                  List.of(
                      new Field("email", quoted("fuzz@example.org")),
                      new Field("locale", quoted("fr-CA")),
                      new Field("timeZone", quoted("America/Toronto")))),
          Map.entry(WaivePeriodRequest.class, f -> List.of(new Field("reason", quoted("fuzzing")))),
          Map.entry(
              ReactivateSubscriptionRequest.class,
              f -> List.of(new Field("reason", quoted("fuzzing")))),
          Map.entry(
              RefundPeriodRequest.class,
              f ->
                  List.of(
                      new Field("amount", quoted("1.00")), new Field("reason", quoted("fuzzing")))),
          Map.entry(
              StartReconciliationRequest.class,
              f -> List.of(new Field("lookbackDays", "1"), new Field("repair", "false"))),
          Map.entry(
              CreateSubscriptionRequest.class,
              f ->
                  List.of(
                      new Field("sku", quoted("fuzz-plan")), new Field("amount", quoted("9.99")),
                      new Field("currency", quoted("USD")),
                          new Field("email", quoted("fuzz@example.com")),
                      new Field("paymentMethod", quoted("pm_card_visa")),
                          new Field("term", quoted("MONTHLY")),
                      new Field("billingDay", "31"), new Field("startDate", quoted("2026-03-20")),
                      new Field("timeZone", quoted("Europe/Paris")),
                          new Field("reminderDaysBefore", "3"))),
          Map.entry(
              CancelSubscriptionRequest.class,
              f -> List.of(new Field("reason", quoted("fuzzing")))),
          Map.entry(
              ChangePaymentMethodRequest.class,
              f -> List.of(new Field("paymentMethod", quoted("pm_card_mastercard")))),
          Map.entry(
              ApiKeyResource.CreateApiKeyRequest.class,
              f ->
                  List.of(
                      new Field("role", quoted("account")),
                      new Field("accountId", quoted(f.otherAccount())),
                      new Field("label", quoted("fuzz")))),
          Map.entry(
              WebhookEndpointResource.CreateRequest.class,
              f ->
                  List.of(
                      new Field("url", quoted("https://merchant.example/fuzz")),
                      new Field("events", "[" + quoted("payment.failed") + "]"),
                      new Field("description", quoted("fuzz")))));

  /**
   * The field names a body of this type has: every component of a record (an example may leave
   * optional ones out; the fuzzer adds them), none for raw bodies such as the webhooks'.
   */
  static List<String> fieldNames(Class<?> type) {
    if (type != null && type.isRecord()) {
      return java.util.Arrays.stream(type.getRecordComponents())
          .map(RecordComponent::getName)
          .toList();
    }
    return fields(type, new Fixture("a", "s", "k", "o")).stream().map(Field::name).toList();
  }

  static List<Field> fields(Class<?> type, Fixture fixture) {
    Function<Fixture, List<Field>> example = EXAMPLES.get(type);
    if (example != null) {
      return example.apply(fixture);
    }
    if (type != null && type.isRecord()) {
      List<Field> fields = new ArrayList<>();
      for (RecordComponent component : type.getRecordComponents()) {
        fields.add(
            new Field(
                component.getName(), valueOf(component.getType(), component.getGenericType(), 0)));
      }
      return fields;
    }
    return List.of();
  }

  static String render(List<Field> fields) {
    StringBuilder json = new StringBuilder("{");
    for (Field field : fields) {
      if (json.length() > 1) {
        json.append(',');
      }
      json.append(quoted(field.name())).append(':').append(field.json());
    }
    return json.append('}').toString();
  }

  private static String valueOf(Class<?> type, Type generic, int depth) {
    if (type == String.class) {
      return quoted("x");
    }
    if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
      return "1";
    }
    if (type == boolean.class || type == Boolean.class) {
      return "true";
    }
    if (type == BigDecimal.class) {
      return quoted("1.00");
    }
    if (type == LocalDate.class) {
      return quoted("2026-04-01");
    }
    if (type == Instant.class) {
      return quoted("2026-04-01T00:00:00Z");
    }
    if (type.isEnum()) {
      return quoted(((Enum<?>) type.getEnumConstants()[0]).name());
    }
    if (Collection.class.isAssignableFrom(type)) {
      if (generic instanceof ParameterizedType p
          && p.getActualTypeArguments()[0] instanceof Class<?> element
          && depth < 3) {
        return "[" + valueOf(element, element, depth + 1) + "]";
      }
      return "[]";
    }
    if (type.isRecord() && depth < 3) {
      List<Field> fields = new ArrayList<>();
      for (RecordComponent component : type.getRecordComponents()) {
        fields.add(
            new Field(
                component.getName(),
                valueOf(component.getType(), component.getGenericType(), depth + 1)));
      }
      return render(fields);
    }
    return "{}";
  }

  /** A valid value for a path parameter, by name. */
  static String pathValue(String name, Fixture fixture) {
    return switch (name) {
      case "accountId" -> fixture.account();
      case "subscriptionId" -> fixture.subscriptionId();
      case "keyId" -> fixture.keyId();
      case "provider" -> "sandbox";
      case "endpointId" -> "we_0123456789abcdef01234567";
      case "eventId" -> "evt_" + fixture.subscriptionId() + "_1_0";
      default -> "1";
    };
  }

  /** A valid value for a query parameter, or null to leave it out. */
  static String queryValue(String name) {
    return switch (name) {
      case "date" -> "2026-04-01";
      case "limit" -> "10";
      case "type" -> "subscription.created";
      default -> null;
    };
  }
}
