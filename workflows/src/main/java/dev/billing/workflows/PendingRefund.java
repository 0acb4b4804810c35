package dev.billing.workflows;

import dev.billing.workflows.activities.RefundInput;
import java.time.Instant;

/**
 * A refund the gateway gave no answer about. It is resolved by sending the very same input again
 * (same key, same parameters) while the gateway still remembers the key: the gateway replays the
 * first refund if it was made, or makes it now; either way exactly one refund exists.
 *
 * @param upgradeTransactionId set when this refunds an upgrade's charge (not the period's own)
 * @param sentFrom when the key was first sent
 * @param sends how many sends got no answer so far
 */
public record PendingRefund(
    String requestId,
    RefundInput input,
    String upgradeTransactionId,
    String actor,
    Instant sentFrom,
    int sends) {

  public PendingRefund sent() {
    return new PendingRefund(requestId, input, upgradeTransactionId, actor, sentFrom, sends + 1);
  }
}
