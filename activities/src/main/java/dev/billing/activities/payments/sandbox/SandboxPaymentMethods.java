package dev.billing.activities.payments.sandbox;

import dev.billing.activities.payments.sandbox.SandboxPaymentMethod.Behaviour;
import dev.billing.domain.PaymentMethod;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The payment methods the sandbox gateway knows: the single source of their tokens, masks and
 * behaviours. Card tokens, masks and decline codes follow Stripe's test mode, so a developer can
 * move to Stripe's test keys without relearning the test data; the {@code pm_sandbox_*} ones script
 * what Stripe's test mode cannot (recovery on a later attempt, gateway errors, timeouts, returns).
 *
 * <p>Everything is deterministic: outcomes depend only on the token, the idempotency key and the
 * sandbox clock. "Attempt" is the last segment of the idempotency key ({@code
 * charge:<subscription>:<cycle>:<attempt>}); a repeated key replays the first answer for as long as
 * the gateway keeps it (24 hours: {@link SandboxSettings}).
 *
 * <table>
 *   <caption>Sandbox test payment methods</caption>
 *   <tr><th>token</th><th>mask</th><th>behaviour</th></tr>
 *   <tr><td>pm_card_visa</td><td>Visa •••• 4242</td><td>succeeds</td></tr>
 *   <tr><td>pm_card_mastercard</td><td>Mastercard •••• 4444</td><td>succeeds</td></tr>
 *   <tr><td>pm_card_chargeDeclined</td><td>Visa •••• 0002</td><td>hard decline
 *       {@code card_declined}, every attempt (no dunning)</td></tr>
 *   <tr><td>pm_card_chargeDeclinedInsufficientFunds</td><td>Visa •••• 9995</td><td>soft decline
 *       {@code insufficient_funds}, every attempt</td></tr>
 *   <tr><td>pm_card_chargeDeclinedExpiredCard</td><td>Visa •••• 0069</td><td>hard decline
 *       {@code expired_card}, every attempt</td></tr>
 *   <tr><td>pm_sandbox_recoversAfter_N</td><td>Visa •••• 1881</td><td>soft decline
 *       {@code insufficient_funds} on attempts 1..N of each period, success from attempt N+1</td></tr>
 *   <tr><td>pm_sandbox_transientErrors_N</td><td>Mastercard •••• 8210</td><td>the first N calls with
 *       a key fail as gateway unavailable before the request executes (a 503 from the edge, like a
 *       429: nothing recorded for the key), then it succeeds</td></tr>
 *   <tr><td>pm_sandbox_serverError</td><td>Visa •••• 0500</td><td>the first request with a key fails
 *       while it executes (a 500): nothing is charged, and the error is recorded for the key, so
 *       every repeat within the key's 24 hours replays the 500, as Stripe does. A request with the
 *       key once it is forgotten is new, and succeeds</td></tr>
 *   <tr><td>pm_sandbox_timeoutAfterCharge</td><td>Visa •••• 5556</td><td>the first call with a key
 *       charges, then fails as gateway unavailable, as a timeout would: the money moved, the caller
 *       does not know. Look-ups say SUCCEEDED, a repeated call replays the success</td></tr>
 *   <tr><td>pm_sandbox_bankDebit</td><td>Bank account •••• 6789</td><td>accepted as pending; settles
 *       {@link #SETTLEMENT_DELAY} (3 days) later by the sandbox clock, with a charge.succeeded event
 *       at that instant</td></tr>
 *   <tr><td>pm_sandbox_bankDebitReturned</td><td>Bank account •••• 2227</td><td>as pm_sandbox_bankDebit,
 *       then returned {@link #RETURN_DELAY} (2 days) after settling: RETURNED with code
 *       {@code insufficient_funds} and a charge.returned event at that instant</td></tr>
 *   <tr><td>pm_sandbox_disputed</td><td>Visa •••• 0259</td><td>succeeds; the card holder disputes it
 *       {@link #DISPUTE_DELAY} (5 days) later ({@code fraudulent}, a charge.dispute.created event),
 *       and the dispute is lost {@link #DISPUTE_DECIDED_AFTER} (10 days) after that: RETURNED with
 *       code {@code dispute_lost} and a charge.returned event. A disputed charge cannot be
 *       refunded</td></tr>
 * </table>
 *
 * <p>N is 0 to {@link #MAX_COUNT}, written without leading zeros.
 */
public final class SandboxPaymentMethods {
  private SandboxPaymentMethods() {}

  public static final String VISA = "pm_card_visa";
  public static final String MASTERCARD = "pm_card_mastercard";
  public static final String CHARGE_DECLINED = "pm_card_chargeDeclined";
  public static final String INSUFFICIENT_FUNDS = "pm_card_chargeDeclinedInsufficientFunds";
  public static final String EXPIRED_CARD = "pm_card_chargeDeclinedExpiredCard";
  public static final String RECOVERS_AFTER_PREFIX = "pm_sandbox_recoversAfter_";
  public static final String TRANSIENT_ERRORS_PREFIX = "pm_sandbox_transientErrors_";
  public static final String SERVER_ERROR = "pm_sandbox_serverError";
  public static final String TIMEOUT_AFTER_CHARGE = "pm_sandbox_timeoutAfterCharge";
  public static final String BANK_DEBIT = "pm_sandbox_bankDebit";
  public static final String BANK_DEBIT_RETURNED = "pm_sandbox_bankDebitReturned";
  public static final String DISPUTED = "pm_sandbox_disputed";

  /** From the charge of pm_sandbox_disputed to its dispute. */
  public static final Duration DISPUTE_DELAY = Duration.ofDays(5);

  /** From the dispute of pm_sandbox_disputed to its loss. */
  public static final Duration DISPUTE_DECIDED_AFTER = Duration.ofDays(10);

  /** The reason of pm_sandbox_disputed's dispute. */
  public static final String DISPUTE_REASON = "fraudulent";

  /** The return code of a lost dispute. */
  public static final String DISPUTE_LOST_CODE = "dispute_lost";

  /** Largest N of the parametrised tokens. */
  public static final int MAX_COUNT = 100;

  /** From acceptance to settlement of a sandbox bank debit. */
  public static final Duration SETTLEMENT_DELAY = Duration.ofDays(3);

  /** From settlement to return of pm_sandbox_bankDebitReturned. */
  public static final Duration RETURN_DELAY = Duration.ofDays(2);

  /** The code and message of a sandbox return (ACH R01 as Stripe names it). */
  public static final String RETURN_CODE = "insufficient_funds";

  public static final String RETURN_MESSAGE =
      "The customer's bank returned the debit: insufficient funds.";

  private static final String INSUFFICIENT_FUNDS_CODE = "insufficient_funds";
  private static final String INSUFFICIENT_FUNDS_MESSAGE = "Your card has insufficient funds.";
  private static final String RECOVERS_AFTER_MASK = "Visa •••• 1881";
  private static final String TRANSIENT_ERRORS_MASK = "Mastercard •••• 8210";

  private static final Map<String, SandboxPaymentMethod> FIXED =
      catalog(
          new SandboxPaymentMethod(VISA, "Visa •••• 4242", Behaviour.SUCCEEDS, 0, null, null),
          new SandboxPaymentMethod(
              MASTERCARD, "Mastercard •••• 4444", Behaviour.SUCCEEDS, 0, null, null),
          new SandboxPaymentMethod(
              CHARGE_DECLINED,
              "Visa •••• 0002",
              Behaviour.DECLINES,
              0,
              "card_declined",
              "Your card was declined."),
          new SandboxPaymentMethod(
              INSUFFICIENT_FUNDS,
              "Visa •••• 9995",
              Behaviour.DECLINES,
              0,
              INSUFFICIENT_FUNDS_CODE,
              INSUFFICIENT_FUNDS_MESSAGE),
          new SandboxPaymentMethod(
              EXPIRED_CARD,
              "Visa •••• 0069",
              Behaviour.DECLINES,
              0,
              "expired_card",
              "Your card has expired."),
          new SandboxPaymentMethod(
              SERVER_ERROR, "Visa •••• 0500", Behaviour.SERVER_ERROR, 0, null, null),
          new SandboxPaymentMethod(
              TIMEOUT_AFTER_CHARGE,
              "Visa •••• 5556",
              Behaviour.TIMEOUT_AFTER_CHARGE,
              0,
              null,
              null),
          new SandboxPaymentMethod(
              BANK_DEBIT, "Bank account •••• 6789", Behaviour.BANK_DEBIT, 0, null, null),
          new SandboxPaymentMethod(
              BANK_DEBIT_RETURNED,
              "Bank account •••• 2227",
              Behaviour.BANK_DEBIT_RETURNED,
              0,
              null,
              null),
          new SandboxPaymentMethod(DISPUTED, "Visa •••• 0259", Behaviour.DISPUTED, 0, null, null));

  /** pm_sandbox_recoversAfter_N. */
  public static String recoversAfter(int n) {
    return RECOVERS_AFTER_PREFIX + requireCount(n);
  }

  /** pm_sandbox_transientErrors_N. */
  public static String transientErrors(int n) {
    return TRANSIENT_ERRORS_PREFIX + requireCount(n);
  }

  /**
   * All fixed methods and one example of each parametrised one (N = 2), succeeding cards first, in
   * a stable order (for a dev UI's picker).
   */
  public static List<SandboxPaymentMethod> all() {
    return List.of(
        FIXED.get(VISA),
        FIXED.get(MASTERCARD),
        FIXED.get(CHARGE_DECLINED),
        FIXED.get(INSUFFICIENT_FUNDS),
        FIXED.get(EXPIRED_CARD),
        find(recoversAfter(2)).orElseThrow(),
        find(transientErrors(2)).orElseThrow(),
        FIXED.get(SERVER_ERROR),
        FIXED.get(TIMEOUT_AFTER_CHARGE),
        FIXED.get(BANK_DEBIT),
        FIXED.get(BANK_DEBIT_RETURNED),
        FIXED.get(DISPUTED));
  }

  public static Optional<SandboxPaymentMethod> find(String token) {
    if (token == null) {
      return Optional.empty();
    }
    SandboxPaymentMethod fixed = FIXED.get(token);
    if (fixed != null) {
      return Optional.of(fixed);
    }
    if (token.startsWith(RECOVERS_AFTER_PREFIX)) {
      return count(token, RECOVERS_AFTER_PREFIX)
          .map(
              n ->
                  new SandboxPaymentMethod(
                      token,
                      RECOVERS_AFTER_MASK,
                      Behaviour.RECOVERS_AFTER,
                      n,
                      INSUFFICIENT_FUNDS_CODE,
                      INSUFFICIENT_FUNDS_MESSAGE));
    }
    if (token.startsWith(TRANSIENT_ERRORS_PREFIX)) {
      return count(token, TRANSIENT_ERRORS_PREFIX)
          .map(
              n ->
                  new SandboxPaymentMethod(
                      token, TRANSIENT_ERRORS_MASK, Behaviour.TRANSIENT_ERRORS, n, null, null));
    }
    return Optional.empty();
  }

  /** The domain value for a known token; throws IllegalArgumentException naming an unknown one. */
  public static PaymentMethod paymentMethod(String token) {
    return find(token)
        .orElseThrow(() -> new IllegalArgumentException("unknown sandbox payment method: " + token))
        .paymentMethod();
  }

  // Only the canonical spelling ("_2", not "_02" or "_+2"), so one behaviour has one token.
  private static Optional<Integer> count(String token, String prefix) {
    String digits = token.substring(prefix.length());
    if (digits.isEmpty() || digits.length() > 3 || !digits.chars().allMatch(Character::isDigit)) {
      return Optional.empty();
    }
    int n = Integer.parseInt(digits);
    if (n > MAX_COUNT || !Integer.toString(n).equals(digits)) {
      return Optional.empty();
    }
    return Optional.of(n);
  }

  private static int requireCount(int n) {
    if (n < 0 || n > MAX_COUNT) {
      throw new IllegalArgumentException("N must be 0 to " + MAX_COUNT + ", got " + n);
    }
    return n;
  }

  private static Map<String, SandboxPaymentMethod> catalog(SandboxPaymentMethod... methods) {
    Map<String, SandboxPaymentMethod> byToken = new LinkedHashMap<>();
    for (SandboxPaymentMethod m : methods) {
      byToken.put(m.token(), m);
    }
    return Collections.unmodifiableMap(byToken);
  }
}
