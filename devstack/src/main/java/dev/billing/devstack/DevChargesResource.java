package dev.billing.devstack;

import dev.billing.activities.payments.sandbox.SandboxCharge;
import dev.billing.activities.payments.sandbox.SandboxGateway;
import dev.billing.api.views.Timestamps;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/** What the sandbox gateway charged, with the idempotency key of each charge, oldest first. */
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
}
