package dev.billing.workflows.delivery;

import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import java.time.Duration;
import java.time.Instant;

/** Timeouts and retries of the delivery steps; each says what its numbers protect. */
public final class DeliveryActivityOptions {
  private DeliveryActivityOptions() {}

  /** Activity failure types that end a delivery at once: retrying cannot change the answer. */
  public static final String ENDPOINT_GONE = "EndpointGone";

  /**
   * How long an event is offered to an endpoint that keeps failing, from the time of its change:
   * then the delivery is recorded FAILED and the endpoint's next event goes. The contract merchants
   * read (docs/api.md).
   */
  public static final Duration RETRY_WINDOW = Duration.ofDays(3);

  /**
   * What an event gets however late its turn comes (it waited behind another's three days): a few
   * tries over an hour, so an endpoint that stays down costs about an hour per event, not three
   * days, and one that came back gets it.
   */
  public static final Duration LAST_CHANCE = Duration.ofHours(1);

  /**
   * One POST: the HTTP client gives up after 10 s (connect 5 s), well inside the 30 s, so an
   * attempt that times out is still recorded by the activity itself. Retried 10 s, 20 s, 40 s ...
   * at most an hour apart until the event's window closes ({@link #deliver}): an endpoint down for
   * a day gets about 30 tries and its events as soon as one succeeds.
   */
  static final ActivityOptions DELIVER =
      ActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofSeconds(30))
          .setScheduleToCloseTimeout(RETRY_WINDOW)
          .setRetryOptions(
              RetryOptions.newBuilder()
                  .setInitialInterval(Duration.ofSeconds(10))
                  .setBackoffCoefficient(2)
                  .setMaximumInterval(Duration.ofHours(1))
                  .setDoNotRetry(ENDPOINT_GONE)
                  .build())
          .build();

  /**
   * {@link #DELIVER} with the part of the event's window that is left at {@code now} ({@link
   * #LAST_CHANCE} at least) as its schedule-to-close.
   */
  public static ActivityOptions deliver(Instant windowStart, Instant now) {
    Duration left = Duration.between(now, windowStart.plus(RETRY_WINDOW));
    return ActivityOptions.newBuilder(DELIVER)
        .setScheduleToCloseTimeout(left.compareTo(LAST_CHANCE) < 0 ? LAST_CHANCE : left)
        .build();
  }

  /**
   * Reads and writes of DynamoDB: retried 1 s doubling to a minute, without limit. Nothing else can
   * end a delivery's bookkeeping, and DynamoDB comes back.
   */
  public static final ActivityOptions STORE =
      ActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofSeconds(30))
          .setRetryOptions(
              RetryOptions.newBuilder()
                  .setInitialInterval(Duration.ofSeconds(1))
                  .setBackoffCoefficient(2)
                  .setMaximumInterval(Duration.ofMinutes(1))
                  .build())
          .build();
}
