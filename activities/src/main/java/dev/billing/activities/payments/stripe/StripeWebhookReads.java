package dev.billing.activities.payments.stripe;

import dev.billing.domain.ChargeRefund;
import java.util.List;
import java.util.Optional;

/**
 * What the API's webhook intake reads from Stripe beyond an event, with the API's own key ({@link
 * StripeChargeMethods}); a process without one reads nothing and judges events by their own fields.
 */
@FunctionalInterface
public interface StripeWebhookReads {
  /** Reads nothing. */
  StripeWebhookReads NONE = chargeId -> Optional.empty();

  /**
   * A Charge's {@code payment_method_details.type}, which tells a returned bank debit from a card
   * chargeback.
   *
   * @return empty when unknown (no API key on this process)
   * @throws RuntimeException when Stripe cannot be read now
   */
  Optional<String> paymentMethodType(String chargeId);

  /**
   * A Charge's refunds that moved money, with billing's key on billing's own: events of API
   * versions from 2022-11-15 do not embed them.
   *
   * @return empty when this process cannot read them
   * @throws RuntimeException when Stripe cannot be read now
   */
  default List<ChargeRefund> refunds(String chargeId) {
    return List.of();
  }
}
