package dev.billing.devstack;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.billing.activities.payments.GatewayRefund;
import dev.billing.activities.payments.InvalidGatewayRequestException;
import dev.billing.activities.payments.sandbox.SandboxCharge;
import dev.billing.activities.payments.sandbox.SandboxGateway;
import dev.billing.activities.views.Timestamps;
import dev.billing.api.errors.ApiProblem;
import dev.billing.domain.Money;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * What the sandbox gateway charged, with the idempotency key of each charge, oldest first; and a
 * refund made as if in the gateway's dashboard, which billing learns of only from the sandbox's
 * signed charge.refunded webhook, as it would from Stripe's.
 */
@Path("/v1/dev/charges")
@Produces(MediaType.APPLICATION_JSON)
public final class DevChargesResource {

  private final SandboxGateway gateway;

  DevChargesResource(SandboxGateway gateway) {
    this.gateway = gateway;
  }

  public record ChargeView(
      String idempotencyKey,
      String transactionId,
      String amount,
      String currency,
      String paymentMethod,
      String outcome,
      String declineCode,
      String at) {

    static ChargeView of(SandboxCharge charge) {
      return new ChargeView(
          charge.idempotencyKey(),
          charge.transactionId(),
          charge.amount().toPlainString(),
          charge.amount().currency(),
          charge.token(),
          charge.outcome().name(),
          charge.declineCode(),
          Timestamps.instant(charge.at()));
    }
  }

  public record ChargesView(List<ChargeView> items) {}

  @GET
  public ChargesView list() {
    return new ChargesView(gateway.charges().stream().map(ChargeView::of).toList());
  }

  /**
   * @param amount a decimal string in the charge's currency; absent refunds all that is left
   */
  public record DashboardRefundRequest(@JsonProperty("amount") String amount) {}

  public record RefundView(
      String refundId, String transactionId, String amount, String currency, String at) {}

  /**
   * Refunds a charge at the sandbox, outside billing's calls: 200 with the refund; 404 for a charge
   * the sandbox did not make; 400 naming {@code amount} when it is not a positive amount in the
   * charge's currency; 409 when the sandbox refuses it as Stripe would (nothing left, more than is
   * left, a charge that is disputed or holds no money).
   */
  @POST
  @Path("/{transactionId}/refund")
  @Consumes(MediaType.APPLICATION_JSON)
  public RefundView refund(
      @PathParam("transactionId") String transactionId, DashboardRefundRequest body) {
    SandboxCharge charge =
        gateway.charges().stream()
            .filter(c -> c.transactionId().equals(transactionId))
            .findFirst()
            .orElseThrow(
                () -> ApiProblem.notFound("The sandbox made no charge " + transactionId + "."));
    Money amount = null;
    if (body != null && body.amount() != null) {
      try {
        amount = Money.parse(body.amount().strip(), charge.amount().currency());
      } catch (IllegalArgumentException e) {
        throw ApiProblem.invalid("amount", e.getMessage());
      }
      if (!amount.greaterThanZero()) {
        throw ApiProblem.invalid("amount", "amount must be greater than zero");
      }
    }
    GatewayRefund refund;
    try {
      refund = gateway.refundAtDashboard(transactionId, amount);
    } catch (InvalidGatewayRequestException e) {
      throw ApiProblem.conflict("refund-refused", "Refund refused", e.getMessage());
    }
    return new RefundView(
        refund.refundId(),
        transactionId,
        refund.amount().toPlainString(),
        refund.amount().currency(),
        Timestamps.instant(refund.processedAt()));
  }
}
