package dev.billing.activities.payments.sandbox;

import dev.billing.activities.payments.GatewayUnavailableException;
import dev.billing.activities.payments.sandbox.SandboxPaymentMethod.Behaviour;
import java.net.SocketTimeoutException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The gateway failures that test payment methods script (see {@link SandboxPaymentMethods}), each
 * where Stripe's would happen: the 503s of {@code pm_sandbox_transientErrors_N} before the request
 * executes (nothing stored for the key), the 500 of {@code pm_sandbox_serverError} while it
 * executes (stored and replayed, once per key), and the read timeout of {@code
 * pm_sandbox_timeoutAfterCharge} after the money moved. Not thread-safe: the gateway's lock guards
 * it.
 */
final class ScriptedFailures {
  private final Map<String, Integer> errorsServed = new HashMap<>();
  private final Set<String> serverErrorsMade = new HashSet<>();

  /**
   * @param method null for a token that scripts nothing
   * @throws GatewayUnavailableException the next of the method's 503s for this key, if any is left
   */
  void beforeExecuting(SandboxPaymentMethod method, String key) {
    if (method == null || method.behaviour() != Behaviour.TRANSIENT_ERRORS) {
      return;
    }
    int served = errorsServed.getOrDefault(key, 0);
    if (served < method.count()) {
      errorsServed.put(key, served + 1);
      throw new GatewayUnavailableException(
          "Sandbox gateway error "
              + (served + 1)
              + " of "
              + method.count()
              + " for '"
              + key
              + "' (simulated 503 Service Unavailable)",
          null);
    }
  }

  /**
   * The 500 this key's execution raises, the first time only (a key forgotten and sent again then
   * charges); null when it raises none.
   */
  String serverError(Behaviour behaviour, String key) {
    if (behaviour == Behaviour.SERVER_ERROR && serverErrorsMade.add(key)) {
      return "Sandbox gateway error while executing the charge with key '"
          + key
          + "' (simulated 500 Internal Server Error; nothing was charged)";
    }
    return null;
  }

  /**
   * @throws GatewayUnavailableException the simulated read timeout, when the method scripts one
   */
  static void afterCharging(Behaviour behaviour, String key) {
    if (behaviour == Behaviour.TIMEOUT_AFTER_CHARGE) {
      throw new GatewayUnavailableException(
          "Read timed out after the sandbox charged '"
              + key
              + "' (simulated timeout: the money moved)",
          new SocketTimeoutException("Read timed out"));
    }
  }
}
