package dev.billing.workflows.subscription;

import dev.billing.domain.ChargeMinimums;
import dev.billing.domain.Money;
import dev.billing.domain.PaidPeriod;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.workflows.PlanChangeRequest;
import java.time.LocalDate;

/**
 * What an immediate plan change costs: the price difference for the days left in the paid period
 * (today included), charged at once when positive and chargeable, owed with the next charge when
 * below the gateway's minimum, credited to the next charge when negative. Pure: the running
 * period's stored status is handed in.
 *
 * @param chargeNow the difference is charged now (see {@link Upgrades#upgradeNow})
 * @param prorated the difference for the days left; zero when nothing paid is running
 * @param why how {@code prorated} was reached, for the history
 * @param balance the subscription's balance after the change (when not charged now)
 * @param detail the history's sentence for the change (when not charged now)
 */
record PlanProration(boolean chargeNow, Money prorated, String why, Money balance, String detail) {

  /**
   * Whether today lies in the dates of the period before the cycle the subscription is on, after a
   * payment: only then is the running period's stored status worth reading.
   */
  static boolean inPaidDates(Subscription sub, LocalDate today) {
    return sub.status() != SubscriptionStatus.TRIALING
        && sub.lastPaymentAt() != null
        && sub.cycle() >= 2
        && PaidPeriod.running(sub).contains(today);
  }

  /**
   * @param running the stored status of the running period (cycle - 1); read only when {@link
   *     #inPaidDates}, else ignored
   */
  static PlanProration of(
      Subscription sub, PlanChangeRequest request, LocalDate today, PeriodStatus running) {
    long paidCycle = sub.cycle() - 1;
    boolean inPaidPeriod = inPaidDates(sub, today);
    String why = "nothing paid is running: no proration";
    if (inPaidPeriod) {
      // A period skipped by a pause, waived or still unpaid is in its dates but was never paid for.
      inPaidPeriod = running == PeriodStatus.COMPLETED || running == PeriodStatus.REFUNDED;
      if (!inPaidPeriod) {
        why = "cycle " + paidCycle + " is " + running + ", not paid: no proration";
      }
    }
    Money difference = request.price().minus(sub.price());
    Money prorated = Money.zero(sub.price().currency());
    if (inPaidPeriod) {
      PaidPeriod paid = PaidPeriod.running(sub);
      prorated = paid.left(difference, today);
      why = paid.describeLeft(today);
    }
    Money balance = sub.lifecycle().balance();
    String change = "plan " + sub.sku() + " -> " + request.sku() + " at " + request.price();
    if (prorated.minor() > 0 && ChargeMinimums.chargeable(prorated)) {
      return new PlanProration(true, prorated, why, balance, null);
    }
    if (prorated.minor() > 0) {
      // Never sent: the gateway would refuse it as invalid. Owed with the next charge, as a cycle
      // is.
      return new PlanProration(
          false,
          prorated,
          why,
          balance == null ? prorated : balance.plus(prorated),
          change
              + "; "
              + prorated
              + " ("
              + why
              + ") is below the gateway's minimum charge of "
              + ChargeMinimums.minimum(prorated.currency())
              + ": carried to the next charge");
    }
    if (prorated.minor() < 0) {
      Money credit = new Money(-prorated.minor(), prorated.currency());
      return new PlanProration(
          false,
          prorated,
          why,
          balance == null ? prorated : balance.plus(prorated),
          change + "; credit " + credit + " (" + why + ") applied to the next charge");
    }
    return new PlanProration(false, prorated, why, balance, change + " (" + why + ")");
  }
}
