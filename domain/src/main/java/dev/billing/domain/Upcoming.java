package dev.billing.domain;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * The next regular charge of a subscription as its record stands, or why there is none. Computed by
 * the rules the workflow charges by ({@link Subscription#amountDueFor}: the price, a plan change
 * held for that cycle, the balance carried; {@link ChargeMinimums}: a total below the gateway's
 * minimum is carried, not charged). A period already being collected (in dunning, settling) is not
 * part of it: its amount is fixed and the period shows its own retries.
 */
public sealed interface Upcoming {

  /**
   * @param amount what the gateway will be asked for: zero when a credit pays the cycle, and zero
   *     (with {@code carried} set) when the total is below the gateway's minimum
   * @param carried the total carried to the following charge, being below the minimum; null when
   *     none
   */
  record Charge(long cycle, LocalDate dueDate, List<Line> lines, Money amount, Money carried)
      implements Upcoming {
    public Charge {
      lines = List.copyOf(lines);
    }
  }

  /** No charge is coming; the sentence is for the client. */
  record None(String reason) implements Upcoming {}

  /** One part of the charge; the lines add up to the total before the minimum is applied. */
  record Line(Kind kind, String description, Money amount) {}

  enum Kind {
    /** The plan's price for the cycle. */
    PLAN,
    /** What earlier periods left owed: carried below the minimum, an upgrade's difference. */
    BALANCE_OWED,
    /** Credit from a downgrade, used up to the price; the rest stays for later charges. */
    CREDIT
  }

  static Upcoming of(Subscription sub) {
    if (sub.status().isTerminal()) {
      return new None("the subscription is " + sub.status() + ": nothing more is charged");
    }
    LocalDate due = sub.nextPaymentDate();
    if (due == null) {
      Pause pause = sub.lifecycle().pause();
      return new None(
          pause != null && pause.openEnded()
              ? "the subscription is paused until it is resumed: no charge is scheduled"
              : "no charge is scheduled");
    }
    LocalDate cancelsOn = sub.lifecycle().cancelsOn();
    if (cancelsOn != null && !due.isBefore(cancelsOn)) {
      return new None("the subscription ends on " + cancelsOn + " without a further charge");
    }
    BillingSchedule schedule = sub.schedule();
    long cycle = schedule.firstCycleOnOrAfter(sub.cycle(), due);
    List<Line> lines = new ArrayList<>();
    Money price = sub.priceFor(cycle);
    PendingPlanChange change = sub.lifecycle().pendingChange();
    boolean changed = change != null && cycle >= change.effectiveCycle();
    lines.add(
        new Line(
            Kind.PLAN,
            (changed ? change.sku() + " (the plan change from " + sub.sku() + ")" : sub.sku())
                + ", "
                + due
                + " to "
                + schedule.dueDate(cycle + 1).minusDays(1),
            price));
    Money balance = sub.lifecycle().balance();
    if (balance != null && balance.minor() > 0) {
      lines.add(new Line(Kind.BALANCE_OWED, "owed from earlier periods", balance));
    } else if (balance != null && balance.minor() < 0) {
      // Credit pays up to the price; what is left of it stays on the balance.
      Money used =
          balance.minor() + price.minor() < 0
              ? new Money(-price.minor(), price.currency())
              : balance;
      Money kept = balance.minus(used);
      lines.add(
          new Line(
              Kind.CREDIT,
              kept.minor() == 0
                  ? "credit"
                  : "credit (" + new Money(-kept.minor(), kept.currency()) + " more is kept)",
              used));
    }
    Money total = sub.amountDueFor(cycle);
    if (total.greaterThanZero() && !ChargeMinimums.chargeable(total)) {
      return new Charge(cycle, due, lines, Money.zero(total.currency()), total);
    }
    return new Charge(cycle, due, lines, total, null);
  }
}
