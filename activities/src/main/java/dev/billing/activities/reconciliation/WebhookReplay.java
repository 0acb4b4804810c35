package dev.billing.activities.reconciliation;

import dev.billing.activities.payments.GatewayEvent;
import dev.billing.activities.payments.PaymentEventIntake;
import dev.billing.activities.payments.PaymentGateway;
import dev.billing.domain.reconciliation.FindingKind;
import dev.billing.domain.reconciliation.Repair;
import dev.billing.store.Page;
import dev.billing.store.PageRequest;
import dev.billing.store.events.EventRef;
import dev.billing.store.events.PaymentEventStore;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Set;

/**
 * The missed-webhook poller: the gateway's events of one UTC day against the ones the webhooks
 * stored (the payment-events table's ByDate index, keys only). Each missing one goes through {@link
 * PaymentEventIntake}, the webhook endpoint's own handling: stored once, signalled to its
 * subscription's workflow.
 */
final class WebhookReplay {
  private final PaymentGateway gateway;
  private final PaymentEventStore events;
  private final PaymentEventIntake intake;
  private final String provider;

  WebhookReplay(
      PaymentGateway gateway,
      PaymentEventStore events,
      PaymentEventIntake intake,
      String provider) {
    this.gateway = gateway;
    this.events = events;
    this.intake = intake;
    this.provider = provider;
  }

  void replay(DayCheckInput input, FindingLog log, Runnable heartbeat) {
    Instant from = input.day().atStartOfDay(ZoneOffset.UTC).toInstant();
    Instant to = from.plus(Duration.ofDays(1));
    if (to.isAfter(input.asOf())) {
      to = input.asOf();
    }
    if (!from.isBefore(to)) {
      return;
    }
    Set<String> received = received(input);
    for (GatewayEvent event : gateway.listEvents(from, to)) {
      heartbeat.run();
      log.examined();
      if (received.contains(event.id())) {
        continue;
      }
      String situation =
          event.type().wireName()
              + " "
              + event.id()
              + " of "
              + event.transactionId()
              + " ("
              + event.occurredAt()
              + ") never arrived as a webhook";
      if (!input.repair()) {
        log.add(
            FindingKind.WEBHOOK_MISSED,
            event.subscriptionId(),
            null,
            event.cycle(),
            event.id(),
            situation + "; not replayed (report only)",
            Repair.NONE);
        continue;
      }
      try {
        PaymentEventIntake.Result result =
            intake.accept(
                GatewayOutcomes.stored(provider, event, input.asOf()),
                GatewayOutcomes.signal(provider, event));
        log.add(
            FindingKind.WEBHOOK_MISSED,
            event.subscriptionId(),
            null,
            event.cycle(),
            event.id(),
            situation
                + switch (result.outcome()) {
                  case SIGNALLED -> "; stored and signalled to the workflow";
                  case RESTARTED ->
                      "; stored; the subscription had ended, so its workflow was started again"
                          + " from the record to record the return";
                  case NO_WORKFLOW ->
                      "; stored; no running workflow to signal (the charge check compares"
                          + " it with the period)";
                  case STORED_ONLY -> "; stored";
                },
            Repair.EVENT_REPLAYED);
      } catch (RuntimeException e) {
        log.add(
            FindingKind.WEBHOOK_MISSED,
            event.subscriptionId(),
            null,
            event.cycle(),
            event.id(),
            situation + "; replay failed: " + e.getMessage(),
            Repair.FAILED);
      }
    }
  }

  /** The ids of this provider's events stored for the day (one partition of the date index). */
  private Set<String> received(DayCheckInput input) {
    Set<String> ids = new HashSet<>();
    String token = null;
    do {
      Page<EventRef> page =
          events.eventsOn(input.day(), new PageRequest(token, PageRequest.MAX_LIMIT));
      page.items().stream()
          .filter(ref -> ref.provider().equals(provider))
          .forEach(ref -> ids.add(ref.eventId()));
      token = page.nextPageToken();
    } while (token != null);
    return ids;
  }
}
