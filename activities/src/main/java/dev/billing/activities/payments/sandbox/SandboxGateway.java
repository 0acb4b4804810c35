package dev.billing.activities.payments.sandbox;

import dev.billing.activities.payments.GatewayCharge;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.InvalidGatewayRequestException;
import dev.billing.activities.payments.PaymentDeclinedException;
import dev.billing.activities.payments.PaymentGateway;
import dev.billing.activities.payments.sandbox.SandboxCharge.Outcome;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An in-memory gateway that behaves like Stripe's test mode: the outcome depends only on the
 * payment method token ({@link SandboxPaymentMethods}), and an idempotency key replays the outcome
 * stored the first time, decline included. Deterministic, so tests can assert transaction ids.
 * Everything is lost on restart, as nothing outlives a dev stack.
 */
public final class SandboxGateway implements PaymentGateway {
  private static final String TRANSACTION_PREFIX = "ch_sb_";

  private final InstantSource clock;
  // One lock for both: the check of a key and the charge it guards must be atomic.
  private final Map<String, SandboxCharge> byKey = new HashMap<>();
  private final List<SandboxCharge> charges = new ArrayList<>();

  public SandboxGateway(InstantSource clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public synchronized GatewayCharge charge(GatewayChargeRequest request) {
    SandboxCharge earlier = byKey.get(request.idempotencyKey());
    if (earlier != null) {
      requireSameParameters(earlier, request);
      return answer(earlier, true);
    }
    // Like Stripe, a request that fails validation stores no idempotent result.
    if (!request.amount().greaterThanZero()) {
      throw new InvalidGatewayRequestException(InvalidGatewayRequestException.AMOUNT_TOO_SMALL,
          "Amount must be greater than zero, got " + request.amount());
    }
    SandboxCharge charge = process(request);
    byKey.put(charge.idempotencyKey(), charge);
    charges.add(charge);
    return answer(charge, false);
  }

  /** Every charge processed, oldest first. */
  public synchronized List<SandboxCharge> charges() {
    return List.copyOf(charges);
  }

  /** "ch_sb_" and the first 24 hex digits of the key's SHA-256: the same key, the same id. */
  public static String transactionId(String idempotencyKey) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256")
          .digest(idempotencyKey.getBytes(StandardCharsets.UTF_8));
      return TRANSACTION_PREFIX + HexFormat.of().formatHex(hash).substring(0, 24);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  private SandboxCharge process(GatewayChargeRequest request) {
    String token = request.paymentMethodToken();
    String code;
    String message;
    SandboxPaymentMethod method = SandboxPaymentMethods.find(token).orElse(null);
    if (method == null) {
      code = "invalid_payment_method";
      message = "No such payment method: '" + token + "'";
    } else {
      code = method.declineCode();
      message = method.declineMessage();
    }
    // Millisecond precision: what the store keeps, so a processedAt read back compares equal.
    var at = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    return new SandboxCharge(request.idempotencyKey(), transactionId(request.idempotencyKey()),
        request.amount(), token, code == null ? Outcome.SUCCEEDED : Outcome.DECLINED, code, message,
        at);
  }

  private static void requireSameParameters(SandboxCharge earlier, GatewayChargeRequest request) {
    if (!earlier.amount().equals(request.amount())
        || !earlier.token().equals(request.paymentMethodToken())) {
      throw new InvalidGatewayRequestException(InvalidGatewayRequestException.IDEMPOTENCY_KEY_REUSED,
          "Keys for idempotent requests can only be used with the same parameters they were first"
              + " used with; '" + request.idempotencyKey() + "' was first used for "
              + earlier.amount() + " to " + earlier.token());
    }
  }

  private static GatewayCharge answer(SandboxCharge charge, boolean replayed) {
    if (charge.outcome() == Outcome.DECLINED) {
      throw new PaymentDeclinedException(charge.declineCode(), charge.declineMessage());
    }
    return new GatewayCharge(charge.transactionId(), charge.at(), replayed);
  }
}
