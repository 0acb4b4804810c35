package dev.billing.activities;

import dev.billing.activities.delivery.DeliveryHandoff;
import dev.billing.activities.notifications.Delivery;
import dev.billing.activities.notifications.MessageTemplates;
import dev.billing.activities.notifications.Notification;
import dev.billing.activities.notifications.Notifier;
import dev.billing.activities.notifications.ReceiptMessages;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.RecordInput;
import dev.billing.domain.RecordResult;
import dev.billing.store.BillingStore;
import dev.billing.workflows.activities.LoadPeriodInput;
import dev.billing.workflows.activities.LoadPeriodResult;
import dev.billing.workflows.activities.RecordActivities;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits a change; when the change carries a receipt, then mails it, so a paid cycle costs no
 * extra Temporal action for its receipt. The mail is best effort: the receipt notifier has short
 * timeouts, and whatever goes wrong with it (server down, the log unreadable, a bounce) the change
 * stays committed and the result says {@code receiptPending}, on which the workflow sends a
 * PAYMENT_RECEIPT notice (same message id) through the retried NotificationActivities. A retry of a
 * change that already committed mails again only if the notification log has no answer for it.
 */
public final class RecordActivitiesImpl implements RecordActivities {
  private static final Logger log = LoggerFactory.getLogger(RecordActivitiesImpl.class);

  private final ChangeRecorder recorder;
  private final BillingStore store;
  private final Notifier receiptNotifier;
  private final ReceiptMessages receipts;

  /**
   * @param receiptNotifier should fail fast (a few seconds): it runs inside the record activity,
   *     after the commit, within its 30 s start-to-close timeout
   */
  public RecordActivitiesImpl(
      BillingStore store, Notifier receiptNotifier, MessageTemplates templates) {
    this(store, receiptNotifier, templates, DeliveryHandoff.NONE);
  }

  /**
   * @param delivery told of every committed change's events
   */
  public RecordActivitiesImpl(
      BillingStore store,
      Notifier receiptNotifier,
      MessageTemplates templates,
      DeliveryHandoff delivery) {
    this.recorder = new ChangeRecorder(store, delivery);
    this.store = store;
    this.receiptNotifier = Objects.requireNonNull(receiptNotifier, "receiptNotifier");
    this.receipts = new ReceiptMessages(templates);
  }

  /**
   * A SCHEDULED period is what the next charge will be, not a charge: to the workflow, which asks
   * for the money a period holds, it is as none.
   */
  @Override
  public LoadPeriodResult loadPeriod(LoadPeriodInput input) {
    return new LoadPeriodResult(
        store
            .getPeriod(input.accountId(), input.subscriptionId(), input.cycle())
            .filter(p -> p.status() != PeriodStatus.SCHEDULED)
            .orElse(null));
  }

  @Override
  public RecordResult record(RecordInput input) {
    RecordResult recorded = recorder.record(input);
    if (input.receipt() == null
        || input.receipt().amount().minor() <= 0
        || input.event() == HistoryEvent.REFUND_REQUESTED) {
      // A reversing receipt (a returned charge) is no payment, and a charge recorded as its refund
      // is sent (an upgrade charge that succeeded after the end) is no purchase: the workflow's
      // notice tells of each.
      return recorded;
    }
    boolean delivered = mailReceipt(input);
    return new RecordResult(recorded.version(), recorded.alreadyApplied(), !delivered);
  }

  /**
   * A bounce also leaves the receipt pending: the notice the workflow then sends finds the bounce
   * in the notification log (nothing is sent again) and reports it, so the workflow learns of it.
   */
  private boolean mailReceipt(RecordInput input) {
    Notification receipt = null;
    try {
      receipt = receipts.receipt(input.receipt(), input.next());
      Delivery delivery = receiptNotifier.send(receipt);
      return !delivery.bounced();
    } catch (RuntimeException e) {
      // Never fail a committed change for its email: the workflow sends the receipt again.
      log.warn(
          "Receipt {} of subscription {} cycle {} not mailed with its record ({}); left pending",
          receipt == null ? "(unrendered)" : receipt.messageId(),
          input.next().subscriptionId(),
          input.receipt().cycle(),
          e.toString());
      return false;
    }
  }
}
