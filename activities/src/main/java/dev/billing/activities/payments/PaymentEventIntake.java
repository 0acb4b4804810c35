package dev.billing.activities.payments;

import dev.billing.domain.PaymentEvent;
import dev.billing.store.events.PaymentEventStore;
import dev.billing.store.events.StoredEvent;
import io.temporal.client.WorkflowNotFoundException;
import java.util.Objects;

/**
 * What happens to a gateway event once it is known to be genuine, whoever found it: the webhook
 * endpoint (signature verified) or reconciliation's replay of missed webhooks (listed by the
 * gateway's authenticated API). It is stored once in the payment-events table, then signalled to
 * its subscription's workflow on every delivery: an earlier delivery may have stored it and failed
 * to signal, and the workflow ignores an event id it has seen. One path, so a replayed event has
 * exactly the effect the webhook would have had.
 */
public final class PaymentEventIntake {

  /** Delivers a payment event to its subscription's workflow. */
  public interface Signals {
    /**
     * @throws WorkflowNotFoundException when the subscription has no running workflow
     */
    void send(PaymentEvent event);

    /**
     * Starts the workflow of an ended subscription again from its record, with the event as the
     * first thing it acts on (see {@code SubscriptionRestart.afterEnd}); if a run has opened
     * meanwhile, the event is signalled to it instead.
     *
     * @return false when there is no ended subscription to start: none recorded, one that still
     *     bills (its missing run is reconciliation's to restart, under the worker's dunning
     *     policy), or one whose record shows nothing the event's charge collected (its return is
     *     recorded)
     */
    boolean startEnded(PaymentEvent event);
  }

  public enum Outcome {
    /** Signalled to the subscription's running workflow. */
    SIGNALLED,
    /** Stored; not about a charge of ours that billing acts on, so nothing to signal. */
    STORED_ONLY,
    /**
     * Stored; it moved money after its subscription ended (a bank debit returned after the
     * cancellation, a refund made at the gateway, a card dispute), so the subscription's workflow
     * was started again from the record to record it.
     */
    RESTARTED,
    /**
     * Stored; its subscription has no running workflow (never created, or ended) and the event
     * moves no money back. Reconciliation compares the gateway with the periods and finds what such
     * an event left undone.
     */
    NO_WORKFLOW
  }

  /**
   * @param duplicate the event was stored by an earlier delivery
   */
  public record Result(Outcome outcome, boolean duplicate) {}

  private final PaymentEventStore events;
  private final Signals signals;

  public PaymentEventIntake(PaymentEventStore events, Signals signals) {
    this.events = Objects.requireNonNull(events, "events");
    this.signals = Objects.requireNonNull(signals, "signals");
  }

  /** The event is stored but the signal could not be sent (e.g. Temporal unreachable). */
  public static final class SignalFailedException extends RuntimeException {
    SignalFailedException(PaymentEvent event, RuntimeException cause) {
      super(
          "event "
              + event.eventId()
              + " stored but not signalled to subscription "
              + event.subscriptionId()
              + ": "
              + cause,
          cause);
    }
  }

  /**
   * Stores {@code stored} once, then signals {@code signal} (null when the event is not signalled).
   * A failure to store (DynamoDB) propagates as it is: nothing was done.
   *
   * @throws SignalFailedException when the event is stored but could not be signalled: the caller
   *     asks for another delivery (webhook: 503) or retries (activity), which signals again
   */
  public Result accept(StoredEvent stored, PaymentEvent signal) {
    boolean duplicate = !events.recordOnce(stored);
    if (signal == null) {
      return new Result(Outcome.STORED_ONLY, duplicate);
    }
    try {
      signals.send(signal);
      return new Result(Outcome.SIGNALLED, duplicate);
    } catch (WorkflowNotFoundException e) {
      return afterEnd(signal, duplicate);
    } catch (RuntimeException e) {
      throw new SignalFailedException(signal, e);
    }
  }

  /**
   * Money can move at the gateway long after a cancellation ended the run: a bank debit returned
   * weeks after it settled, a refund made in the gateway's dashboard, a card dispute opened or
   * decided. Left unrecorded, the books would show money the customer got back (or the merchant no
   * longer holds). A success or a failure about an ended subscription's charge moves no money back
   * and is left to reconciliation's charge check.
   */
  private Result afterEnd(PaymentEvent signal, boolean duplicate) {
    if (!movesMoneyAfterTheEnd(signal.type())) {
      return new Result(Outcome.NO_WORKFLOW, duplicate);
    }
    try {
      return new Result(
          signals.startEnded(signal) ? Outcome.RESTARTED : Outcome.NO_WORKFLOW, duplicate);
    } catch (RuntimeException e) {
      throw new SignalFailedException(signal, e);
    }
  }

  static boolean movesMoneyAfterTheEnd(PaymentEvent.Type type) {
    return switch (type) {
      case CHARGE_RETURNED, CHARGE_REFUNDED, CHARGE_DISPUTED, DISPUTE_WON -> true;
      case CHARGE_SUCCEEDED, CHARGE_FAILED -> false;
    };
  }
}
