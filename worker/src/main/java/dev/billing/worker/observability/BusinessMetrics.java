package dev.billing.worker.observability;

import dev.billing.activities.delivery.DeliveryOutcomes;
import dev.billing.domain.RecordInput;
import dev.billing.domain.RecordResult;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.reconciliation.Finding;
import dev.billing.workflows.activities.ChargeInput;
import dev.billing.workflows.activities.ChargeResult;
import dev.billing.workflows.activities.DeliverEventInput;
import dev.billing.workflows.activities.DeliverEventResult;
import dev.billing.workflows.activities.PaymentFailures;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.util.List;

/**
 * Billing's own counters, read off the activities as they complete (so no workflow code changes and
 * no replay concern) and off reconciliation's findings:
 *
 * <ul>
 *   <li>{@code billing_charges_succeeded_total}, {@code billing_charges_pending_total} (bank debits
 *       accepted), {@code
 *       billing_charges_failed_total{reason=declined|declined_hard|gateway_error|rejected}} (a
 *       gateway error counts each call, so it is an error rate), and {@code
 *       billing_charges_retried_total}: collection attempts after the first (dunning retries, a new
 *       payment method, manual repayment);
 *   <li>{@code billing_dunning_entered_total} (a subscription became PAST_DUE) and {@code
 *       billing_dunning_recovered_total} (a payment brought it back to ACTIVE), from the changes
 *       RecordChange committed (a retry of a committed change is not counted again);
 *   <li>{@code billing_reconciliation_findings_total{kind, repair}};
 *   <li>{@code billing_webhook_deliveries_total{outcome=delivered|retried|failed|endpoint_deleted|
 *       already_finished}}: each webhook POST's end ({@code delivered}: a 2xx; {@code retried}: a
 *       failed attempt, the last of a delivery given up included), each delivery given up once its
 *       retries ran out ({@code failed}), and each attempt that found its delivery finished already
 *       and sent nothing ({@code already_finished}); {@code billing_webhook_delivery_lag_seconds}:
 *       from an event's change to its 2xx, per endpoint (redeliveries left out); {@code
 *       billing_webhook_endpoints_disabled_total}: endpoints this worker disabled because every
 *       delivery kept failing (one WARN line each).
 * </ul>
 */
public final class BusinessMetrics {
  static final String CHARGE = "ChargePaymentMethod";
  static final String RECORD = "RecordChange";
  static final String DELIVER = "DeliverEvent";
  static final String DELIVERY_GIVEN_UP = "RecordDeliveryFailure";

  private final MeterRegistry registry;
  private final Counter succeeded;
  private final Counter pending;
  private final Counter retried;
  private final Counter dunningEntered;
  private final Counter dunningRecovered;
  private final Timer deliveryLag;
  private final Counter endpointsDisabled;

  public BusinessMetrics(MeterRegistry registry) {
    this.registry = registry;
    succeeded =
        Counter.builder("billing.charges.succeeded")
            .description("charges the gateway accepted and settled")
            .register(registry);
    pending =
        Counter.builder("billing.charges.pending")
            .description("bank debits accepted, settling later")
            .register(registry);
    retried =
        Counter.builder("billing.charges.retried")
            .description("collection attempts after a period's first")
            .register(registry);
    dunningEntered =
        Counter.builder("billing.dunning.entered")
            .description("subscriptions that became PAST_DUE")
            .register(registry);
    dunningRecovered =
        Counter.builder("billing.dunning.recovered")
            .description("PAST_DUE subscriptions a payment brought back to ACTIVE")
            .register(registry);
    deliveryLag =
        Timer.builder("billing.webhook.delivery.lag")
            .description("from an event's change to its endpoint's 2xx")
            .register(registry);
    endpointsDisabled =
        Counter.builder("billing.webhook.endpoints.disabled")
            .description("webhook endpoints disabled because every delivery kept failing")
            .register(registry);
    for (String outcome :
        List.of("delivered", "retried", "failed", "endpoint_deleted", "already_finished")) {
      delivery(outcome); // every outcome scraped from the start, at 0
    }
  }

  /** One activity execution attempt ended: with {@code result}, or with {@code failure}. */
  void activityEnded(
      String activityType, int activityAttempt, Object input, Object result, Throwable failure) {
    if (CHARGE.equals(activityType) && input instanceof ChargeInput charge) {
      if (charge.attempt() > 1 && activityAttempt == 1) {
        retried.increment();
      }
      if (failure == null && result instanceof ChargeResult outcome) {
        (outcome.pending() ? pending : succeeded).increment();
      } else if (failure != null) {
        failed(reason(failure)).increment();
      }
    } else if (DELIVER.equals(activityType) && input instanceof DeliverEventInput) {
      deliveryEnded(result, failure);
    } else if (DELIVERY_GIVEN_UP.equals(activityType) && failure == null) {
      delivery("failed").increment();
    } else if (RECORD.equals(activityType)
        && failure == null
        && input instanceof RecordInput change
        && result instanceof RecordResult recorded
        && !recorded.alreadyApplied()
        && change.previous() != null) {
      SubscriptionStatus before = change.previous().status();
      SubscriptionStatus after = change.next().status();
      if (before != SubscriptionStatus.PAST_DUE && after == SubscriptionStatus.PAST_DUE) {
        dunningEntered.increment();
      } else if (before == SubscriptionStatus.PAST_DUE && after == SubscriptionStatus.ACTIVE) {
        dunningRecovered.increment();
      }
    }
  }

  private void deliveryEnded(Object result, Throwable failure) {
    if (failure != null) {
      delivery("retried").increment();
    } else if (result instanceof DeliverEventResult ended) {
      if (DeliveryOutcomes.alreadyFinished(ended)) {
        // No POST of this attempt: counting it delivered would count one 2xx twice, or a
        // delivery planning marked missed as sent.
        delivery("already_finished").increment();
        return;
      }
      switch (ended.outcome()) {
        case DELIVERED -> {
          delivery("delivered").increment();
          if (ended.lagMillis() != null) {
            deliveryLag.record(Duration.ofMillis(ended.lagMillis()));
          }
        }
        case FAILED -> delivery("failed").increment();
        case ENDPOINT_DELETED -> delivery("endpoint_deleted").increment();
      }
    }
  }

  private Counter delivery(String outcome) {
    return Counter.builder("billing.webhook.deliveries")
        .tag("outcome", outcome)
        .description("webhook POSTs ended, and deliveries given up, by outcome")
        .register(registry);
  }

  /** Delivery disabled this endpoint (the id is in the WARN line, not a tag: ids are unbounded). */
  public void endpointDisabled(String endpointId) {
    endpointsDisabled.increment();
  }

  public void finding(Finding finding) {
    registry
        .counter(
            "billing.reconciliation.findings",
            "kind",
            finding.kind().name(),
            "repair",
            finding.repair().name())
        .increment();
  }

  private Counter failed(String reason) {
    return Counter.builder("billing.charges.failed")
        .tag("reason", reason)
        .description("charge attempts that failed, by reason")
        .register(registry);
  }

  private static String reason(Throwable failure) {
    String type = failure instanceof ApplicationFailure app ? app.getType() : null;
    if (PaymentFailures.DECLINED.equals(type)) {
      return "declined";
    }
    if (PaymentFailures.DECLINED_HARD.equals(type)) {
      return "declined_hard";
    }
    if (PaymentFailures.GATEWAY_UNAVAILABLE.equals(type)) {
      return "gateway_error";
    }
    return "rejected";
  }
}
