package dev.billing.domain;

/**
 * @param version the version now stored
 * @param alreadyApplied true when an earlier attempt had committed this change
 * @param receiptPending true when the change wrote a receipt whose customer notice could not be
 *     delivered with it: the workflow sends it through {@link NotificationActivities}, retried
 *     there
 */
public record RecordResult(long version, boolean alreadyApplied, boolean receiptPending) {

  public RecordResult(long version, boolean alreadyApplied) {
    this(version, alreadyApplied, false);
  }
}
