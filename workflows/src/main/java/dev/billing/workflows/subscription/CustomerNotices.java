package dev.billing.workflows.subscription;

import dev.billing.domain.BillingIds;
import dev.billing.domain.EmailBounce;
import dev.billing.domain.Receipt;
import dev.billing.domain.Subscription;
import dev.billing.workflows.BillingActivityOptions;
import dev.billing.workflows.activities.NotificationActivities;
import dev.billing.workflows.activities.NotifyCustomerInput;
import io.temporal.workflow.Async;
import io.temporal.workflow.CompletablePromise;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;

/**
 * Notices sent beside billing: each in its own activity (retried there), never awaited by a charge;
 * a failure is logged, a bounce is kept until the main thread records it on the subscription. A run
 * ends or continues as new only once every notice it sent has finished.
 */
final class CustomerNotices {
  private static final Logger log = Workflow.getLogger(CustomerNotices.class);

  private final NotificationActivities notifier =
      Workflow.newActivityStub(
          NotificationActivities.class, BillingActivityOptions.NOTIFY_CUSTOMER);
  private final List<Bounce> bounces = new ArrayList<>();

  /** A message that bounced, and the address it was sent to. */
  record Bounce(EmailBounce bounce, String to) {}

  /** The last notice sent; each waits for the one before, so a customer reads them in order. */
  private Promise<Void> last = done();

  void send(NotifyCustomerInput input) {
    last =
        last.thenCompose(
            previous ->
                Async.function(notifier::notifyCustomer, input)
                    .handle(
                        (result, failure) -> {
                          if (failure != null) {
                            log.warn(
                                "notice {} to {} failed; billing goes on",
                                input.messageId(),
                                input.subscriptionId(),
                                failure);
                          } else if (result != null && result.bounced()) {
                            bounced(
                                new EmailBounce(now(), input.messageId(), result.bounceReason()),
                                input.email());
                          }
                          return null;
                        }));
  }

  boolean allDone() {
    return last.isCompleted();
  }

  /**
   * A message to {@code to} that bounced, from a notice or the reminder; recorded at the next safe
   * point.
   */
  void bounced(EmailBounce bounce, String to) {
    bounces.add(new Bounce(bounce, to));
  }

  boolean hasBounces() {
    return !bounces.isEmpty();
  }

  Bounce nextBounce() {
    return bounces.remove(0);
  }

  /** The receipt notice of a charge whose record could not mail it. */
  static NotifyCustomerInput receipt(Subscription current, Receipt receipt, Instant at) {
    return NotifyCustomerInput.about(NotifyCustomerInput.Kind.PAYMENT_RECEIPT, current)
        .messageId(BillingIds.receiptMessageId(receipt))
        .cycle(receipt.cycle())
        .sku(receipt.sku())
        .paymentMask(receipt.paymentMask())
        .amount(receipt.amount())
        .date(current.schedule().dateAt(receipt.processedAt()))
        .reason(receipt.transactionId())
        .at(at)
        .build();
  }

  private static Promise<Void> done() {
    CompletablePromise<Void> done = Workflow.newPromise();
    done.complete(null);
    return done;
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
