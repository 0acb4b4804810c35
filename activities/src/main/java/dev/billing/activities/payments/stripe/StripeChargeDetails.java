package dev.billing.activities.payments.stripe;

import static dev.billing.activities.payments.stripe.StripePaging.PAGE_SIZE;
import static dev.billing.activities.payments.stripe.StripePaging.list;
import static dev.billing.activities.payments.stripe.StripePaging.paginate;

import com.stripe.StripeClient;
import com.stripe.model.Charge;
import com.stripe.model.Dispute;
import com.stripe.model.Refund;
import com.stripe.param.DisputeListParams;
import com.stripe.param.RefundListParams;
import dev.billing.domain.ChargeRefund;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * What a Charge holds beyond its own fields: its refunds and its dispute. Stripe embeds a Charge's
 * refunds only when asked to expand them (API versions from 2022-11-15), and then only the first
 * page; the rest, and the refunds of a Charge read without them, come from the refunds list. A
 * Charge says only that it is {@code disputed}; how the dispute stands is the Dispute's.
 */
final class StripeChargeDetails {
  private final StripeClient client;

  StripeChargeDetails(StripeClient client) {
    this.client = client;
  }

  /**
   * The Charge's refunds that moved money: the embedded ones when the Charge carries them all, else
   * every page of the refunds list; none, without a call, for a Charge with nothing refunded.
   *
   * @throws dev.billing.activities.payments.PaymentGatewayException when Stripe cannot be read
   */
  List<ChargeRefund> refunds(Charge charge) {
    if (charge.getRefunds() != null
        && charge.getRefunds().getData() != null
        && !Boolean.TRUE.equals(charge.getRefunds().getHasMore())) {
      return moved(charge.getRefunds().getData());
    }
    if (charge.getRefunds() == null
        && charge.getAmountRefunded() != null
        && charge.getAmountRefunded() == 0) {
      return List.of();
    }
    return charge.getId() == null ? List.of() : refunds(charge.getId());
  }

  /** Every refund of the Charge that moved money, every page. */
  List<ChargeRefund> refunds(String chargeId) {
    RefundListParams params =
        RefundListParams.builder().setCharge(chargeId).setLimit(PAGE_SIZE).build();
    List<Refund> refunds = new ArrayList<>();
    paginate(
        "list refunds of " + chargeId,
        () -> {
          for (Refund refund :
              list(() -> client.v1().refunds().list(params)).autoPagingIterable()) {
            refunds.add(refund);
          }
        });
    return moved(refunds);
  }

  /**
   * The Charge's dispute, the newest when there were several; empty when it has none.
   *
   * @throws dev.billing.activities.payments.PaymentGatewayException when Stripe cannot be read
   */
  Optional<Dispute> dispute(String chargeId) {
    DisputeListParams params =
        DisputeListParams.builder().setCharge(chargeId).setLimit(PAGE_SIZE).build();
    List<Dispute> disputes = new ArrayList<>();
    paginate(
        "list disputes of " + chargeId,
        () -> {
          for (Dispute dispute :
              list(() -> client.v1().disputes().list(params)).autoPagingIterable()) {
            disputes.add(dispute);
          }
        });
    return disputes.stream()
        .max(Comparator.comparing(d -> d.getCreated() == null ? Long.MIN_VALUE : d.getCreated()));
  }

  private static List<ChargeRefund> moved(List<Refund> refunds) {
    List<ChargeRefund> out = new ArrayList<>();
    for (Refund refund : refunds) {
      ChargeRefund read = StripePaymentEvents.refund(refund);
      if (read != null) {
        out.add(read);
      }
    }
    return out;
  }
}
