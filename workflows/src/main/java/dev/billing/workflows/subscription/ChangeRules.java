package dev.billing.workflows.subscription;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.PendingPlanChange;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.BillingDayChange;
import dev.billing.workflows.CancelRequest;
import dev.billing.workflows.CustomerChange;
import dev.billing.workflows.PauseRequest;
import dev.billing.workflows.PaymentMethodChange;
import dev.billing.workflows.PendingUpgrade;
import dev.billing.workflows.PlanChangeRequest;
import dev.billing.workflows.RefundRequest;
import dev.billing.workflows.WaiveRequest;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * Which change the subscription refuses in which state: null when allowed, else why not. The
 * validators ask these rules so a refused request never enters history; the main thread asks them
 * again when it applies the change, because another change may have been applied in between (it
 * then fails the update with {@link UpdateRejections#TRANSITION_NOT_ALLOWED}). Pure: everything a
 * rule reads is handed in. docs/lifecycle.md has the diagram.
 */
final class ChangeRules {
  private ChangeRules() {}

  private static final String INCOMPLETE =
      "subscription is incomplete: its first payment has not been collected";

  private static final String EXPIRED =
      "subscription expired: its first payment was never collected";

  /** How long a pause may last, in cycles. */
  static final int MAX_PAUSE_CYCLES = 36;

  static String pause(Subscription sub, PauseRequest request, boolean cancelling, LocalDate today) {
    return pause(sub, request, cancelling, today, false);
  }

  /**
   * @param cancelling an immediate cancellation is asked for (or decided) and not recorded yet
   * @param today the subscription's date in its own zone
   * @param firstPaymentOpen an INCOMPLETE subscription's first payment is being retried or settled
   */
  static String pause(
      Subscription sub,
      PauseRequest request,
      boolean cancelling,
      LocalDate today,
      boolean firstPaymentOpen) {
    String common = changeable(sub, cancelling);
    if (common != null) {
      return common;
    }
    if (sub.status() == SubscriptionStatus.PAUSED) {
      return "subscription is already paused";
    }
    if (sub.status() == SubscriptionStatus.INCOMPLETE && firstPaymentOpen) {
      // Paused, its retries would wait and it would neither start nor expire.
      return INCOMPLETE + " and is being retried; pay it, give a new payment method or cancel";
    }
    if (sub.lifecycle().cancelsOn() != null) {
      return "subscription ends on " + sub.lifecycle().cancelsOn() + "; it cannot be paused";
    }
    if (request == null) {
      return null;
    }
    if (request.cycles() != null && request.until() != null) {
      return "give either cycles or until, not both";
    }
    if (request.cycles() != null && (request.cycles() < 1 || request.cycles() > MAX_PAUSE_CYCLES)) {
      return "cycles must be between 1 and " + MAX_PAUSE_CYCLES;
    }
    if (request.until() != null && !request.until().isAfter(today)) {
      return "until must be after today (" + today + ")";
    }
    return null;
  }

  static String resume(Subscription sub, boolean cancelling) {
    String common = changeable(sub, cancelling);
    if (common != null) {
      return common;
    }
    return sub.status() == SubscriptionStatus.PAUSED ? null : "subscription is not paused";
  }

  /**
   * @param upgrading the immediate upgrade still waiting for its charge's outcome, if any
   */
  static String plan(
      Subscription sub, PlanChangeRequest request, boolean cancelling, PendingUpgrade upgrading) {
    String common = changeable(sub, cancelling);
    if (common != null) {
      return common;
    }
    if (sub.lifecycle().cancelsOn() != null) {
      return "subscription ends on " + sub.lifecycle().cancelsOn() + "; its plan cannot change";
    }
    if (request == null
        || request.price() == null
        || request.sku() == null
        || request.effective() == null) {
      return "sku, price and effective are required";
    }
    if (!request.price().currency().equals(sub.price().currency())) {
      return "currency must be the subscription's (" + sub.price().currency() + ")";
    }
    if (request.price().minor() < 0) {
      return "amount must not be negative";
    }
    if (request.effective() == PlanChangeRequest.Effective.NOW) {
      if (sub.status() == SubscriptionStatus.PAUSED) {
        return "subscription is paused; change the plan at period end, or resume first";
      }
      if (sub.status() == SubscriptionStatus.PAST_DUE) {
        return "subscription is past due; pay the unpaid period first, or change the plan at period end";
      }
    }
    if (upgrading != null) {
      return "the change to "
          + upgrading.sku()
          + " waits for the outcome of its charge ("
          + upgrading.idempotencyKey()
          + "); change the plan once it is known";
    }
    PendingPlanChange pending = sub.lifecycle().pendingChange();
    boolean same =
        request.sku().equals(sub.sku())
            && request.price().equals(sub.price())
            && termSwitch(sub, request) == null;
    if (same && pending == null) {
      return "subscription is already on " + sub.sku() + " at " + sub.price();
    }
    return null;
  }

  /** The term a plan change switches to; null when it keeps the subscription's. */
  static Term termSwitch(Subscription sub, PlanChangeRequest request) {
    return request.term() == null || request.term() == sub.schedule().term()
        ? null
        : request.term();
  }

  static String billingDay(Subscription sub, BillingDayChange request, boolean cancelling) {
    return billingDay(sub, request, cancelling, null);
  }

  /**
   * @param upgrading an immediate upgrade or term switch whose charge has no outcome yet: its price
   *     and dates were fixed on the schedule as it is, so the day cannot move under it
   */
  static String billingDay(
      Subscription sub, BillingDayChange request, boolean cancelling, PendingUpgrade upgrading) {
    String common = changeable(sub, cancelling);
    if (common != null) {
      return common;
    }
    if (upgrading != null) {
      return "a plan change to "
          + upgrading.sku()
          + " is waiting for its charge (key "
          + upgrading.idempotencyKey()
          + "); change the billing day once it is settled";
    }
    if (request == null || request.billingDay() < 1 || request.billingDay() > 31) {
      return "billingDay must be between 1 and 31";
    }
    if (sub.lifecycle().cancelsOn() != null) {
      return "subscription ends on "
          + sub.lifecycle().cancelsOn()
          + "; its billing day cannot change";
    }
    return switch (sub.status()) {
      case TRIALING -> "the billing day follows the trial's end; change it after the first payment";
      case PAUSED -> "subscription is paused; resume first";
      case PAST_DUE -> "subscription is past due; pay the unpaid period first";
      default ->
          request.billingDay() == sub.schedule().billingDay()
              ? "subscription already bills on day " + request.billingDay()
              : null;
    };
  }

  /**
   * New customer details: any status but ended, at least one field, each well-formed (the API
   * checks them fully; this keeps a direct update from recording nonsense), and something must
   * differ. The same email while a bounce is recorded is a change: the customer says the mailbox
   * works again, and the bounce is cleared.
   */
  static String customer(Subscription sub, CustomerChange change, boolean cancelling) {
    String common = changeable(sub, cancelling);
    if (common != null) {
      return common;
    }
    if (change == null
        || (change.email() == null && change.locale() == null && change.timeZone() == null)) {
      return "give at least one of email, locale and timeZone";
    }
    if (change.email() != null && !plainAddress(change.email())) {
      return "email must be an address such as \"ana@example.com\"";
    }
    if (change.locale() != null && (change.locale().isEmpty() || !printable(change.locale()))) {
      return "locale must be a BCP 47 language tag such as \"en-US\"";
    }
    if (change.timeZone() != null) {
      try {
        BillingSchedule.zoneOf(change.timeZone());
      } catch (IllegalArgumentException e) {
        return e.getMessage();
      }
    }
    List<String> unchanged = new ArrayList<>();
    if (change.email() != null) {
      if (!change.email().equals(sub.email()) || sub.lifecycle().emailBounce() != null) {
        return null;
      }
      unchanged.add("email");
    }
    if (change.locale() != null) {
      if (!change.locale().equals(sub.locale())) {
        return null;
      }
      unchanged.add("locale " + sub.locale());
    }
    if (change.timeZone() != null) {
      if (!change.timeZone().equals(sub.schedule().timeZone())) {
        return null;
      }
      unchanged.add("time zone " + sub.schedule().timeZone());
    }
    return "nothing to change: the subscription already has this "
        + String.join(" and ", unchanged);
  }

  /** One mailbox: text around one '@', no space, control or non-ASCII character. */
  private static boolean plainAddress(String email) {
    int at = email.indexOf('@');
    return at > 0 && at == email.lastIndexOf('@') && at < email.length() - 1 && printable(email);
  }

  /** Printable ASCII without spaces. */
  private static boolean printable(String text) {
    return text.chars().allMatch(c -> c > ' ' && c <= '~');
  }

  /**
   * @param owedCycle the oldest period manual repayment can collect now, null when none
   * @param awaitingCycle a period whose last charge's outcome is not known yet, null when none
   */
  static String pay(Subscription sub, boolean cancelling, Long owedCycle, Long awaitingCycle) {
    String common = changeable(sub, cancelling);
    if (common != null) {
      return common;
    }
    if (owedCycle == null) {
      return awaitingCycle != null
          ? "the outcome of cycle "
              + awaitingCycle
              + "'s last charge is not known yet; nothing to pay until it is"
          : "nothing is owed: no period is unpaid";
    }
    return null;
  }

  /** A waiver names a period; what the period's record allows is checked once it is read. */
  static String waive(Subscription sub, WaiveRequest request, boolean cancelling) {
    if (request == null) {
      return "a period is required";
    }
    String common = changeable(sub, cancelling);
    if (common != null) {
      return common;
    }
    if (sub.status() == SubscriptionStatus.INCOMPLETE) {
      return INCOMPLETE + "; it is not waived (it expires unpaid, or cancel it)";
    }
    return periodId(request.cycle());
  }

  /**
   * Refunds are the one change a cancelled subscription still accepts: money collected before the
   * end may be given back after it (the API restarts the ended workflow for it).
   */
  static String refund(RefundRequest request) {
    return request == null ? "a period is required" : periodId(request.cycle());
  }

  /** The validator's rule for a cancellation, now or at period end. */
  static String cancel(Subscription sub, CancelRequest request, boolean cancelling) {
    if (sub.status() == SubscriptionStatus.INCOMPLETE_EXPIRED) {
      return EXPIRED;
    }
    if (sub.status().isTerminal() || cancelling) {
      return "subscription is already cancelled";
    }
    if (request == null || !request.atPeriodEnd()) {
      return null;
    }
    if (request.refundUnused()) {
      return "refundUnused applies to an immediate cancellation only";
    }
    return cancelAtPeriodEnd(sub);
  }

  /** What a cancellation at period end needs when its turn comes. */
  static String cancelAtPeriodEnd(Subscription sub) {
    if (sub.status() == SubscriptionStatus.INCOMPLETE_EXPIRED) {
      return EXPIRED;
    }
    if (sub.status().isTerminal()) {
      return "subscription is already cancelled";
    }
    if (sub.lifecycle().cancelsOn() != null) {
      return "subscription already ends on " + sub.lifecycle().cancelsOn();
    }
    if (sub.status() == SubscriptionStatus.PAUSED) {
      return "subscription is paused: nothing paid runs on; cancel it immediately instead";
    }
    return null;
  }

  /**
   * A reactivation: of an ended subscription whose money has all settled (the API has judged its
   * window and periods from the record), or the taking back of a cancellation at period end.
   *
   * @param moneyOpen a payment still settling, or a refund or upgrade charge without its outcome
   */
  static String reactivate(Subscription sub, boolean cancelling, boolean moneyOpen) {
    if (sub.status() == SubscriptionStatus.INCOMPLETE_EXPIRED) {
      return EXPIRED;
    }
    if (sub.status().isTerminal() && sub.lastPaymentAt() == null) {
      return "the subscription ended before its first payment was collected; subscribe again";
    }
    if (sub.status().isTerminal()) {
      return moneyOpen
          ? "a payment of the cancelled subscription has no final outcome yet; reactivate it once"
              + " it has"
          : null;
    }
    if (cancelling) {
      return "subscription is being cancelled";
    }
    return sub.lifecycle().cancelsOn() == null ? "subscription is not cancelled" : null;
  }

  static String paymentMethod(Subscription sub, PaymentMethodChange change, boolean cancelling) {
    if (change == null || change.paymentMethod() == null) {
      return "a payment method is required";
    }
    if (sub.status() == SubscriptionStatus.INCOMPLETE_EXPIRED) {
      return EXPIRED;
    }
    if (sub.status().isTerminal() || cancelling) {
      return "subscription is cancelled";
    }
    return null;
  }

  private static String periodId(long cycle) {
    return cycle < 1 ? "period ids are cycle numbers from 1" : null;
  }

  private static String changeable(Subscription sub, boolean cancelling) {
    if (sub.status() == SubscriptionStatus.INCOMPLETE_EXPIRED) {
      return EXPIRED;
    }
    return sub.status().isTerminal() || cancelling ? "subscription is cancelled" : null;
  }
}
