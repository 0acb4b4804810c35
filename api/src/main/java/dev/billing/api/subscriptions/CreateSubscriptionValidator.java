package dev.billing.api.subscriptions;

import dev.billing.api.errors.ApiProblem;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Digests;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.Subscription;
import dev.billing.domain.Term;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;

/**
 * Turns a create request its constraints accepted ({@link CreateSubscriptionRequest}, checked
 * through {@code @Valid}) into a subscription to create: defaults applied, values normalized, the
 * request hash. Keeps the rules no constraint can judge: an absent body, and a start date relative
 * to today (not judged on a replay). It has no side effects, so a rejected request changes nothing.
 */
public final class CreateSubscriptionValidator {

  public static final String DEFAULT_TIME_ZONE = "UTC";
  public static final Term DEFAULT_TERM = Term.MONTHLY;
  public static final int DEFAULT_REMINDER_DAYS_BEFORE = 3;

  /** How far ahead a subscription may start. */
  public static final java.time.Period MAX_START_AHEAD = java.time.Period.ofYears(3);

  /** The longest free trial: two years. */
  public static final int MAX_TRIAL_DAYS = 730;

  private final Duration dueWindow;

  /**
   * @param dueWindow stored with every subscription it validates (BillingSchedule.dueWindow)
   */
  public CreateSubscriptionValidator(Duration dueWindow) {
    this.dueWindow = dueWindow;
  }

  /**
   * Normalizes a request whose fields passed their constraints.
   *
   * @param today the current date in a zone; used only to default {@code startDate}
   * @throws ApiProblem 400 when there is no body
   */
  public NewSubscription validate(CreateSubscriptionRequest request, TodayIn today) {
    if (request == null) {
      throw ApiProblem.invalid(null, "a JSON object with the subscription is required");
    }
    // Every value below passed the request's constraints; this only reads and normalizes them.
    String sku = request.sku().strip();
    Money price = Money.parse(request.amount().strip(), request.currency().strip());
    String email = request.email().strip();
    String token = request.paymentMethod().strip();
    Term term = request.term() == null ? DEFAULT_TERM : Term.valueOf(request.term());
    String timeZone = request.timeZone() == null ? DEFAULT_TIME_ZONE : request.timeZone().strip();
    ZoneId zone = BillingSchedule.zoneOf(timeZone);
    int reminderDaysBefore =
        request.reminderDaysBefore() == null
            ? DEFAULT_REMINDER_DAYS_BEFORE
            : request.reminderDaysBefore();
    Integer billingDay = request.billingDay();
    LocalDate startDate =
        request.startDate() == null ? today.in(zone) : LocalDate.parse(request.startDate().strip());
    int trialDays = request.trialDays() == null ? 0 : request.trialDays();
    String locale = Locales.normalize(request.locale());

    // A trial moves the first charge to its end, and the billing anchor with it unless a billing
    // day was asked for; then the trial runs on to the first billing date on or after its end, so
    // there is never a stub charge for the days in between.
    LocalDate firstChargeFrom = startDate.plusDays(trialDays);
    int day = billingDay != null ? billingDay : firstChargeFrom.getDayOfMonth();
    BillingSchedule schedule =
        BillingSchedule.startingOnOrAfter(firstChargeFrom, day, term, timeZone, reminderDaysBefore)
            .withDueWindow(dueWindow);
    LocalDate trialEndsOn = trialDays == 0 ? null : schedule.dueDate(1);
    PaymentMethod paymentMethod = new PaymentMethod(token, PaymentMethods.maskOf(token));
    LocalDate requestedStart = request.startDate() == null ? null : startDate;
    return new NewSubscription(
        sku,
        price,
        email,
        paymentMethod,
        startDate,
        schedule,
        requestHash(
            sku,
            price,
            email,
            token,
            term,
            billingDay,
            requestedStart,
            timeZone,
            reminderDaysBefore,
            trialDays,
            locale),
        locale,
        trialEndsOn);
  }

  /**
   * A subscription cannot start in the past, nor more than three years ahead. Kept apart from
   * {@link #validate} because a replay of an Idempotency-Key is answered from what was stored, even
   * after its start date has passed.
   */
  public void requireStartNotInPast(NewSubscription subscription, TodayIn today) {
    LocalDate todayThere = today.in(subscription.schedule().zone());
    if (subscription.startDate().isBefore(todayThere)) {
      throw ApiProblem.invalid(
          "startDate",
          "startDate must not be before today ("
              + todayThere
              + " in "
              + subscription.schedule().timeZone()
              + ")");
    }
    // A bound on dates: a start decades ahead is a typo (2062 for 2026), not a plan.
    LocalDate latest = todayThere.plus(MAX_START_AHEAD);
    if (subscription.startDate().isAfter(latest)) {
      throw ApiProblem.invalid(
          "startDate",
          "startDate must be at most three years after today ("
              + latest
              + " in "
              + subscription.schedule().timeZone()
              + ")");
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
  static String requestHash(
      String sku,
      Money price,
      String email,
      String token,
      Term term,
      Integer billingDay,
      LocalDate startDate,
      String timeZone,
      int reminderDaysBefore,
      int trialDays,
      String locale) {
    String canonical =
        String.join(
            "\n",
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
    return Digests.sha256Hex(canonical);
  }
}
