package dev.billing.api.subscriptions;

import dev.billing.api.errors.ApiProblem;
import dev.billing.api.errors.FieldError;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.Subscription;
import dev.billing.domain.Term;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The one place that checks a create request. It reports every invalid field at once, each with the
 * message of the domain rule it breaks ({@link Money#parse}, {@link BillingSchedule}), and applies the
 * defaults. It has no side effects, so a rejected request changes nothing.
 */
public final class CreateSubscriptionValidator {

  public static final String DEFAULT_TIME_ZONE = "UTC";
  public static final Term DEFAULT_TERM = Term.MONTHLY;
  public static final int DEFAULT_REMINDER_DAYS_BEFORE = 3;
  /** How far ahead a subscription may start. */
  public static final java.time.Period MAX_START_AHEAD = java.time.Period.ofYears(3);
  /** The longest free trial: two years. */
  public static final int MAX_TRIAL_DAYS = 730;

  /** Keeps SKUs safe inside DynamoDB sort keys, where '#' separates the parts. */
  public static final Pattern SKU = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  // Known-good values used to isolate one field when asking a domain constructor for its message.
  private static final LocalDate PROBE_DATE = LocalDate.of(2000, 1, 1);
  private static final String PROBE_ZONE = "UTC";

  private final Duration dueWindow;

  /** @param dueWindow stored with every subscription it validates (BillingSchedule.dueWindow) */
  public CreateSubscriptionValidator(Duration dueWindow) {
    this.dueWindow = dueWindow;
  }

  /**
   * Validates and normalizes.
   *
   * @param today the current date in a zone; used only to default {@code startDate}
   * @throws ApiProblem 400 naming every invalid field
   */
  public NewSubscription validate(CreateSubscriptionRequest request, TodayIn today) {
    if (request == null) {
      throw ApiProblem.invalid(null, "a JSON object with the subscription is required");
    }
    List<FieldError> errors = new ArrayList<>();

    String sku = required(errors, "sku", request.sku());
    if (sku != null && !SKU.matcher(sku).matches()) {
      errors.add(new FieldError("sku", "sku must be 1 to 64 letters, digits, '.', '_' or '-'"));
    }

    String currency = required(errors, "currency", request.currency());
    boolean currencyValid = false;
    if (currency != null) {
      try {
        Money.fractionDigits(currency);
        currencyValid = true;
      } catch (IllegalArgumentException e) {
        errors.add(new FieldError("currency", e.getMessage()));
      }
    }

    Money price = null;
    String amount = required(errors, "amount", request.amount());
    if (amount != null && currencyValid) {
      try {
        price = Money.parse(amount, currency);
        if (!price.greaterThanZero()) {
          errors.add(new FieldError("amount", "amount must be greater than zero"));
          price = null;
        }
      } catch (IllegalArgumentException e) {
        errors.add(new FieldError("amount", e.getMessage()));
      }
    }

    String email = required(errors, "email", request.email());
    if (email != null) {
      EmailAddresses.validate(errors, "email", email);
    }

    String token = required(errors, "paymentMethod", request.paymentMethod());
    if (token != null) {
      PaymentMethods.validate(errors, "paymentMethod", token);
    }

    Term term = DEFAULT_TERM;
    if (request.term() != null) {
      term = switch (request.term()) {
        case "MONTHLY" -> Term.MONTHLY;
        case "YEARLY" -> Term.YEARLY;
        default -> {
          errors.add(new FieldError("term", "term must be MONTHLY or YEARLY"));
          yield null;
        }
      };
    }

    String timeZone = request.timeZone() == null ? DEFAULT_TIME_ZONE : request.timeZone().strip();
    ZoneId zone = null;
    try {
      zone = BillingSchedule.zoneOf(timeZone);
    } catch (IllegalArgumentException e) {
      errors.add(new FieldError("timeZone", e.getMessage()));
    }

    int reminderDaysBefore = request.reminderDaysBefore() == null
        ? DEFAULT_REMINDER_DAYS_BEFORE : request.reminderDaysBefore();
    try {
      new BillingSchedule(YearMonth.from(PROBE_DATE), 1, Term.MONTHLY, PROBE_ZONE, reminderDaysBefore);
    } catch (IllegalArgumentException e) {
      errors.add(new FieldError("reminderDaysBefore", e.getMessage()));
    }

    Integer billingDay = request.billingDay();
    if (billingDay != null) {
      try {
        BillingSchedule.startingOnOrAfter(PROBE_DATE, billingDay, Term.MONTHLY, PROBE_ZONE, 0);
      } catch (IllegalArgumentException e) {
        errors.add(new FieldError("billingDay", e.getMessage()));
      }
    }

    LocalDate startDate = null;
    if (request.startDate() != null) {
      try {
        startDate = LocalDate.parse(request.startDate().strip());
      } catch (DateTimeParseException e) {
        errors.add(new FieldError("startDate", "startDate must be a date such as \"2026-01-31\""));
      }
    } else if (zone != null) {
      startDate = today.in(zone);
    }

    int trialDays = request.trialDays() == null ? 0 : request.trialDays();
    if (trialDays < 0 || trialDays > MAX_TRIAL_DAYS) {
      errors.add(new FieldError("trialDays", "trialDays must be between 0 and " + MAX_TRIAL_DAYS));
    }

    String locale = Locales.normalize(errors, "locale", request.locale());

    if (!errors.isEmpty()) {
      throw ApiProblem.invalid(errors);
    }
    // A trial moves the first charge to its end, and the billing anchor with it unless a billing
    // day was asked for; then the trial runs on to the first billing date on or after its end, so
    // there is never a stub charge for the days in between.
    LocalDate firstChargeFrom = startDate.plusDays(trialDays);
    int day = billingDay != null ? billingDay : firstChargeFrom.getDayOfMonth();
    BillingSchedule schedule = BillingSchedule.startingOnOrAfter(
        firstChargeFrom, day, term, timeZone, reminderDaysBefore).withDueWindow(dueWindow);
    LocalDate trialEndsOn = trialDays == 0 ? null : schedule.dueDate(1);
    PaymentMethod paymentMethod = new PaymentMethod(token, PaymentMethods.maskOf(token));
    LocalDate requestedStart = request.startDate() == null ? null : startDate;
    return new NewSubscription(sku, price, email, paymentMethod, startDate, schedule, requestHash(
        sku, price, email, token, term, billingDay, requestedStart, timeZone, reminderDaysBefore,
        trialDays, locale), locale, trialEndsOn);
  }

  /**
   * A subscription cannot start in the past, nor more than three years ahead. Kept apart from {@link
   * #validate} because a replay of an Idempotency-Key is answered from what was stored, even after
   * its start date has passed.
   */
  public void requireStartNotInPast(NewSubscription subscription, TodayIn today) {
    LocalDate todayThere = today.in(subscription.schedule().zone());
    if (subscription.startDate().isBefore(todayThere)) {
      throw ApiProblem.invalid("startDate", "startDate must not be before today (" + todayThere
          + " in " + subscription.schedule().timeZone() + ")");
    }
    // A bound on dates: a start decades ahead is a typo (2062 for 2026), not a plan.
    LocalDate latest = todayThere.plus(MAX_START_AHEAD);
    if (subscription.startDate().isAfter(latest)) {
      throw ApiProblem.invalid("startDate", "startDate must be at most three years after today (" + latest
          + " in " + subscription.schedule().timeZone() + ")");
    }
  }

  /** The current date in a zone, from the API's clock. */
  @FunctionalInterface
  public interface TodayIn {
    LocalDate in(ZoneId zone);
  }

  /**
   * SHA-256 of the normalized request: values as validated (amount "9.990" is "9.99"), constant
   * defaults applied. Defaults that depend on the day (startDate, and billingDay through it) are
   * hashed as absent, so retrying the same body tomorrow is still a replay, not a conflict. A trial
   * and a locale other than the default are appended only when given, so requests that use neither
   * hash as they did before these fields existed.
   */
  static String requestHash(String sku, Money price, String email, String token, Term term,
      Integer billingDay, LocalDate startDate, String timeZone, int reminderDaysBefore,
      int trialDays, String locale) {
    String canonical = String.join("\n",
        "sku=" + sku,
        "amount=" + price.toPlainString(),
        "currency=" + price.currency(),
        "email=" + email,
        "paymentMethod=" + token,
        "term=" + term.name(),
        "billingDay=" + (billingDay == null ? "" : billingDay.toString()),
        "startDate=" + (startDate == null ? "" : startDate.toString()),
        "timeZone=" + timeZone,
        "reminderDaysBefore=" + reminderDaysBefore);
    if (trialDays != 0) {
      canonical += "\ntrialDays=" + trialDays;
    }
    if (!Subscription.DEFAULT_LOCALE.equals(locale)) {
      canonical += "\nlocale=" + locale;
    }
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JRE", e);
    }
  }

  private static String required(List<FieldError> errors, String field, String value) {
    if (value == null || value.isBlank()) {
      errors.add(new FieldError(field, field + " is required"));
      return null;
    }
    return value.strip();
  }
}
