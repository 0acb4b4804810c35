package dev.billing.activities.notifications;

/**
 * What a customer message is about. Each kind has its templates under {@code templates/<template>/}
 * (subject, text and HTML) and its own message ids.
 */
public enum NotificationKind {
  PAYMENT_REMINDER("payment-reminder"),
  /** The reminder of a subscription still in its trial: the first charge is coming. */
  TRIAL_ENDING("trial-ending"),
  PAYMENT_RECEIPT("payment-receipt"),
  PAYMENT_FAILED("payment-failed"),
  SUBSCRIPTION_CANCELLED("subscription-cancelled"),
  SUBSCRIPTION_PAUSED("subscription-paused"),
  SUBSCRIPTION_RESUMED("subscription-resumed"),
  PLAN_CHANGED("plan-changed"),
  REFUND_ISSUED("refund-issued"),
  /** The first payment was never collected: the subscription ended before it began. */
  SUBSCRIPTION_EXPIRED("subscription-expired");

  private final String template;

  NotificationKind(String template) {
    this.template = template;
  }

  /** The folder of this kind's templates. */
  public String template() {
    return template;
  }
}
