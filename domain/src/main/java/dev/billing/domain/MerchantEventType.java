package dev.billing.domain;

/**
 * What a merchant's product learns of a subscription, by the name it is sent and listed under. Only
 * what billing records a change for is here: a type with nothing to derive it from would be a
 * promise never kept.
 */
public enum MerchantEventType {
  SUBSCRIPTION_CREATED("subscription.created"),
  /** The trial-ending notice went out: the first charge follows on the trial's end. */
  SUBSCRIPTION_TRIAL_WILL_END("subscription.trial_will_end"),
  /** The first period was collected. */
  SUBSCRIPTION_ACTIVATED("subscription.activated"),
  SUBSCRIPTION_PAST_DUE("subscription.past_due"),
  SUBSCRIPTION_PAUSED("subscription.paused"),
  SUBSCRIPTION_RESUMED("subscription.resumed"),
  SUBSCRIPTION_PLAN_CHANGED("subscription.plan_changed"),
  SUBSCRIPTION_CANCELED("subscription.canceled"),
  /**
   * A cancelled subscription bills again, or its cancellation at period end was taken back: {@code
   * cancelsOn} is null again either way.
   */
  SUBSCRIPTION_REACTIVATED("subscription.reactivated"),
  /** The first charge was never collected: the subscription ended before it began. */
  SUBSCRIPTION_INCOMPLETE_EXPIRED("subscription.incomplete_expired"),
  PAYMENT_SUCCEEDED("payment.succeeded"),
  /** A charge the gateway declined, or that came back after it was collected. */
  PAYMENT_FAILED("payment.failed"),
  PAYMENT_REFUNDED("payment.refunded"),
  /**
   * A card dispute was opened: the network holds the money until it is decided. Lost, it comes as
   * {@code payment.failed} (the money returned); won, the period is collected again, with no event.
   */
  PAYMENT_DISPUTED("payment.disputed");

  private final String wireName;

  MerchantEventType(String wireName) {
    this.wireName = wireName;
  }

  /** The name merchants see, e.g. "payment.failed". */
  public String wireName() {
    return wireName;
  }

  /**
   * @return the type named {@code name} exactly, or null
   */
  public static MerchantEventType fromWireName(String name) {
    for (MerchantEventType type : values()) {
      if (type.wireName.equals(name)) {
        return type;
      }
    }
    return null;
  }
}
