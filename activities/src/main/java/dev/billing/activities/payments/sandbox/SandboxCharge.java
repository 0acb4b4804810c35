package dev.billing.activities.payments.sandbox;

import dev.billing.activities.payments.DeclineCodes;
import dev.billing.activities.payments.DeclineKind;
import dev.billing.activities.payments.GatewayChargeState.Status;
import dev.billing.domain.Money;
import java.time.Instant;
import java.util.Objects;

/**
 * One charge the sandbox processed (replays of its idempotency key are not new charges). Immutable:
 * what a bank debit has become by now follows from the clock ({@link #statusAt}).
 *
 * @param outcome the answer given when it was created
 * @param declineCode null unless DECLINED
 * @param declineMessage null unless DECLINED
 * @param subscriptionId from the request's metadata; null when it had none
 * @param cycle from the request's metadata; null when it had none
 * @param settlesAt when a PENDING charge settles; null for the others
 * @param returnsAt when a settled bank debit is returned; null when it never is
 */
public record SandboxCharge(
    String idempotencyKey,
    String transactionId,
    Money amount,
    String token,
    Outcome outcome,
    String declineCode,
    String declineMessage,
    Instant at,
    String subscriptionId,
    Long cycle,
    Instant settlesAt,
    Instant returnsAt) {

  public enum Outcome {
    SUCCEEDED,
    DECLINED,
    /** Accepted as a bank debit; settles at {@code settlesAt}. */
    PENDING
  }

  public SandboxCharge {
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    Objects.requireNonNull(transactionId, "transactionId");
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(at, "at");
    if ((outcome == Outcome.PENDING) != (settlesAt != null)) {
      throw new IllegalArgumentException("exactly the pending charges settle later");
    }
    if (returnsAt != null && (settlesAt == null || !returnsAt.isAfter(settlesAt))) {
      throw new IllegalArgumentException("a return comes after settlement");
    }
  }

  /** The kind of its decline; null unless DECLINED. */
  public DeclineKind declineKind() {
    return declineCode == null ? null : DeclineCodes.kindOf(declineCode);
  }

  /** When the card holder disputes it (pm_sandbox_disputed); null when never. */
  public Instant disputedAt() {
    boolean disputed = outcome == Outcome.SUCCEEDED && SandboxPaymentMethods.DISPUTED.equals(token);
    return disputed ? at.plus(SandboxPaymentMethods.DISPUTE_DELAY) : null;
  }

  /** When its dispute is lost and the money goes back; null when never. */
  public Instant disputeLostAt() {
    Instant disputed = disputedAt();
    return disputed == null ? null : disputed.plus(SandboxPaymentMethods.DISPUTE_DECIDED_AFTER);
  }

  /** Whether a dispute holds it at {@code now}, open or lost: it cannot be refunded. */
  public boolean disputedBy(Instant now) {
    Instant disputed = disputedAt();
    return disputed != null && !now.isBefore(disputed);
  }

  /** When a settled charge was taken back (a debit returned, a dispute lost); null when never. */
  public Instant takenBackAt() {
    return returnsAt != null ? returnsAt : disputeLostAt();
  }

  /** What a look-up at {@code now} reports. */
  public Status statusAt(Instant now) {
    return switch (outcome) {
      case SUCCEEDED -> {
        Instant lost = disputeLostAt();
        yield lost != null && !now.isBefore(lost) ? Status.RETURNED : Status.SUCCEEDED;
      }
      case DECLINED -> Status.FAILED;
      case PENDING -> {
        if (now.isBefore(settlesAt)) {
          yield Status.PENDING;
        }
        yield returnsAt != null && !now.isBefore(returnsAt) ? Status.RETURNED : Status.SUCCEEDED;
      }
    };
  }

  /** When the money arrived: at once for a card, at settlement for a debit; null if not (yet). */
  public Instant settledAt(Instant now) {
    Status status = statusAt(now);
    if (status == Status.SUCCEEDED || status == Status.RETURNED) {
      return settlesAt != null ? settlesAt : at;
    }
    return null;
  }
}
