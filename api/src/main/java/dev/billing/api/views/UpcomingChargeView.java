package dev.billing.api.views;

import dev.billing.activities.views.Timestamps;
import dev.billing.domain.Upcoming;
import java.util.List;
import java.util.Locale;

/**
 * The next regular charge as the record stands.
 *
 * @param amount what the gateway will be asked for on {@code dueDate}: "0.00" when credit pays the
 *     period or when the total is below the gateway's minimum
 * @param carriedToNextCharge the total carried to the following charge instead, being below the
 *     gateway's minimum; null when none
 * @param lines the parts of the total: {@code plan}, {@code balance_owed}, {@code credit}
 */
public record UpcomingChargeView(
    String subscriptionId,
    long cycle,
    String dueDate,
    String amount,
    String currency,
    String carriedToNextCharge,
    List<LineView> lines) {

  public record LineView(String kind, String description, String amount) {}

  public static UpcomingChargeView of(String subscriptionId, Upcoming.Charge charge) {
    return new UpcomingChargeView(
        subscriptionId,
        charge.cycle(),
        Timestamps.date(charge.dueDate()),
        charge.amount().toPlainString(),
        charge.amount().currency(),
        charge.carried() == null ? null : charge.carried().toPlainString(),
        charge.lines().stream()
            .map(
                l ->
                    new LineView(
                        l.kind().name().toLowerCase(Locale.ROOT),
                        l.description(),
                        l.amount().toPlainString()))
            .toList());
  }
}
