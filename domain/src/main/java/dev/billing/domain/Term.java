package dev.billing.domain;

/** How often a subscription renews. */
public enum Term {
  MONTHLY(1),
  YEARLY(12);

  private final int months;

  Term(int months) {
    this.months = months;
  }

  public int months() {
    return months;
  }
}
