package dev.billing.domain;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * The parts of a subscription's state that only some subscriptions have. Every field is optional;
 * {@link #NONE} is a plain subscription billed on its schedule.
 *
 * @param trialEndsOn the end of the free trial (the first due date); null when there was no trial
 * @param pause set while the subscription is paused
 * @param pendingChange a plan change held for a later cycle
 * @param cancelsOn the paid-through date of a cancellation at period end: the subscription ends
 *     then, with no charge on that date; null when no cancellation is scheduled
 * @param balance what the next charge adds (positive, e.g. the days added by a billing-day move) or
 *     subtracts (negative: credit from a downgrade); null when nothing is carried
 * @param emailBounce the last permanent rejection of a message to the customer; null when none
 * @param upgradeCharge an immediate upgrade whose charge's outcome is not known yet; null when none
 * @param upgradesPaid immediate upgrades' charges that collected, the latest {@value
 *     #MAX_UPGRADES_PAID} (a return of one must find it) (a returned one leaves the list); empty
 *     when none
 * @param reTermed the latest paid period an immediate term switch re-priced; null when none
 * @param moved the paid period in service as it was before billing-day moves lengthened it; null
 *     when none (or recorded before moves kept it)
 */
public record Lifecycle(
    LocalDate trialEndsOn,
    Pause pause,
    PendingPlanChange pendingChange,
    LocalDate cancelsOn,
    Money balance,
    EmailBounce emailBounce,
    PendingUpgradeCharge upgradeCharge,
    List<PaidUpgradeCharge> upgradesPaid,
    ReTermedPeriod reTermed,
    MovedPeriod moved) {
  /** Collected upgrade charges kept for returns, as many as a run keeps settled periods. */
  public static final int MAX_UPGRADES_PAID = 12;

  public static final Lifecycle NONE =
      new Lifecycle(null, null, null, null, null, null, null, null, null, null);

  public Lifecycle(
      LocalDate trialEndsOn,
      Pause pause,
      PendingPlanChange pendingChange,
      LocalDate cancelsOn,
      Money balance,
      EmailBounce emailBounce,
      PendingUpgradeCharge upgradeCharge,
      List<PaidUpgradeCharge> upgradesPaid,
      ReTermedPeriod reTermed) {
    this(
        trialEndsOn,
        pause,
        pendingChange,
        cancelsOn,
        balance,
        emailBounce,
        upgradeCharge,
        upgradesPaid,
        reTermed,
        null);
  }

  public Lifecycle(
      LocalDate trialEndsOn,
      Pause pause,
      PendingPlanChange pendingChange,
      LocalDate cancelsOn,
      Money balance,
      EmailBounce emailBounce,
      PendingUpgradeCharge upgradeCharge,
      List<PaidUpgradeCharge> upgradesPaid) {
    this(
        trialEndsOn,
        pause,
        pendingChange,
        cancelsOn,
        balance,
        emailBounce,
        upgradeCharge,
        upgradesPaid,
        null);
  }

  public Lifecycle(
      LocalDate trialEndsOn,
      Pause pause,
      PendingPlanChange pendingChange,
      LocalDate cancelsOn,
      Money balance,
      EmailBounce emailBounce,
      PendingUpgradeCharge upgradeCharge) {
    this(trialEndsOn, pause, pendingChange, cancelsOn, balance, emailBounce, upgradeCharge, null);
  }

  public Lifecycle(
      LocalDate trialEndsOn,
      Pause pause,
      PendingPlanChange pendingChange,
      LocalDate cancelsOn,
      Money balance,
      EmailBounce emailBounce) {
    this(trialEndsOn, pause, pendingChange, cancelsOn, balance, emailBounce, null);
  }

  public Lifecycle(
      LocalDate trialEndsOn,
      Pause pause,
      PendingPlanChange pendingChange,
      LocalDate cancelsOn,
      Money balance) {
    this(trialEndsOn, pause, pendingChange, cancelsOn, balance, null);
  }

  public Lifecycle {
    if (balance != null && balance.minor() == 0) {
      balance = null;
    }
    upgradesPaid = upgradesPaid == null ? List.of() : List.copyOf(upgradesPaid);
  }

  public Lifecycle withPause(Pause newPause) {
    return new Lifecycle(
        trialEndsOn,
        newPause,
        pendingChange,
        cancelsOn,
        balance,
        emailBounce,
        upgradeCharge,
        upgradesPaid,
        reTermed,
        moved);
  }

  public Lifecycle withPendingChange(PendingPlanChange change) {
    return new Lifecycle(
        trialEndsOn,
        pause,
        change,
        cancelsOn,
        balance,
        emailBounce,
        upgradeCharge,
        upgradesPaid,
        reTermed,
        moved);
  }

  public Lifecycle withCancelsOn(LocalDate date) {
    return new Lifecycle(
        trialEndsOn,
        pause,
        pendingChange,
        date,
        balance,
        emailBounce,
        upgradeCharge,
        upgradesPaid,
        reTermed,
        moved);
  }

  public Lifecycle withEmailBounce(EmailBounce bounce) {
    return new Lifecycle(
        trialEndsOn,
        pause,
        pendingChange,
        cancelsOn,
        balance,
        bounce,
        upgradeCharge,
        upgradesPaid,
        reTermed,
        moved);
  }

  public Lifecycle withBalance(Money newBalance) {
    return new Lifecycle(
        trialEndsOn,
        pause,
        pendingChange,
        cancelsOn,
        newBalance,
        emailBounce,
        upgradeCharge,
        upgradesPaid,
        reTermed,
        moved);
  }

  /**
   * With {@code paid} added; only the latest {@value #MAX_UPGRADES_PAID} are kept. A bank can
   * return a debit weeks after it settled, periods later, so a charge is not dropped when its
   * period ends: a return must still find it.
   */
  public Lifecycle withUpgradePaid(PaidUpgradeCharge paid) {
    List<PaidUpgradeCharge> next = new ArrayList<>(upgradesPaid);
    next.removeIf(c -> c.idempotencyKey().equals(paid.idempotencyKey()));
    next.add(paid);
    if (next.size() > MAX_UPGRADES_PAID) {
      next = next.subList(next.size() - MAX_UPGRADES_PAID, next.size());
    }
    return new Lifecycle(
        trialEndsOn,
        pause,
        pendingChange,
        cancelsOn,
        balance,
        emailBounce,
        upgradeCharge,
        next,
        reTermed,
        moved);
  }

  /** Without the charge with {@code key} (it came back: it holds no money). */
  public Lifecycle withoutUpgradePaid(String key) {
    List<PaidUpgradeCharge> next = new ArrayList<>(upgradesPaid);
    next.removeIf(c -> c.idempotencyKey().equals(key));
    return new Lifecycle(
        trialEndsOn,
        pause,
        pendingChange,
        cancelsOn,
        balance,
        emailBounce,
        upgradeCharge,
        next,
        reTermed,
        moved);
  }

  public Lifecycle withUpgradeCharge(PendingUpgradeCharge charge) {
    return new Lifecycle(
        trialEndsOn,
        pause,
        pendingChange,
        cancelsOn,
        balance,
        emailBounce,
        charge,
        upgradesPaid,
        reTermed,
        moved);
  }

  public Lifecycle withReTermed(ReTermedPeriod period) {
    return new Lifecycle(
        trialEndsOn,
        pause,
        pendingChange,
        cancelsOn,
        balance,
        emailBounce,
        upgradeCharge,
        upgradesPaid,
        period,
        moved);
  }

  public Lifecycle withMoved(MovedPeriod period) {
    return new Lifecycle(
        trialEndsOn,
        pause,
        pendingChange,
        cancelsOn,
        balance,
        emailBounce,
        upgradeCharge,
        upgradesPaid,
        reTermed,
        period);
  }
}
