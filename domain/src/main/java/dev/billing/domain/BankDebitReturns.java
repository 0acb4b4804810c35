package dev.billing.domain;

import java.util.regex.Pattern;

/**
 * Which gateway disputes are returned bank debits (and so reopen a period for dunning) rather than
 * card chargebacks (which are not retried). One rule for every path that reads disputes: webhooks
 * and the gateway's event listing must agree, or the outcome would depend on which arrived first.
 */
public final class BankDebitReturns {
  private BankDebitReturns() {}

  /** NACHA return reason codes: R01 insufficient funds, R10 unauthorized, ... */
  private static final Pattern ACH_RETURN_CODE = Pattern.compile("R[0-9]{2}");

  /**
   * A known payment method type decides: the disputed Charge's {@code payment_method_details.type}
   * (Stripe's "us_bank_account"). A dispute's own {@code payment_method_details.type} names only
   * card-like methods (card, klarna, paypal, amazon_pay), so from a dispute alone it can rule a
   * return out but never in. Without a type, an ACH return code as network reason code together
   * with a non-card payment id ("py_", where card charges have "ch_") says ACH: an R code alone
   * does not, since some card networks' reason codes look alike (American Express R13).
   *
   * @param paymentMethodType the disputed charge's payment method type, or the dispute's own; null
   *     when neither is known
   */
  public static boolean isReturn(
      String paymentMethodType, String networkReasonCode, String chargeId) {
    if (paymentMethodType != null) {
      return "us_bank_account".equals(paymentMethodType);
    }
    return networkReasonCode != null
        && ACH_RETURN_CODE.matcher(networkReasonCode).matches()
        && chargeId != null
        && chargeId.startsWith("py_");
  }
}
