package dev.billing.activities.payments.sandbox;

import dev.billing.domain.Money;
import java.time.Instant;

/**
 * One charge the sandbox processed (replays of its idempotency key are not new charges).
 *
 * @param declineCode null when it succeeded
 * @param declineMessage null when it succeeded
 */
public record SandboxCharge(
    String idempotencyKey,
    String transactionId,
    Money amount,
    String token,
    Outcome outcome,
    String declineCode,
    String declineMessage,
    Instant at) {

  public enum Outcome {
    SUCCEEDED,
    DECLINED
  }
}
