package dev.billing.activities.payments;

import java.util.Locale;
import java.util.Set;

/**
 * Sorts decline codes into {@link DeclineKind}s, in one place for every adapter. Codes are Stripe's
 * (error {@code code} and issuer {@code decline_code}, and ACH return codes as Stripe names them);
 * the sandbox uses the same ones.
 *
 * <table>
 *   <caption>Decline classification</caption>
 *   <tr><th>kind</th><th>codes</th></tr>
 *   <tr><td>HARD</td><td>card_declined, generic_decline, lost_card, stolen_card, pickup_card,
 *       expired_card, restricted_card, fraudulent, merchant_blacklist, security_violation,
 *       transaction_not_allowed, not_permitted, invalid_account, incorrect_number, invalid_number,
 *       card_not_supported, currency_not_supported, new_account_information_available,
 *       stop_payment_order, revocation_of_authorization, revocation_of_all_authorizations,
 *       authentication_required, invalid_payment_method, account_closed, no_account,
 *       debit_not_authorized, bank_account_restricted</td></tr>
 *   <tr><td>SOFT</td><td>everything else, notably insufficient_funds, processing_error,
 *       try_again_later, issuer_not_available, reenter_transaction, do_not_honor, call_issuer,
 *       approve_with_id, card_velocity_exceeded, withdrawal_count_limit_exceeded</td></tr>
 * </table>
 *
 * <p>Unknown codes are SOFT: a soft decline that is really hard costs a few retries on the dunning
 * schedule, while a hard decline that is really soft loses a customer who only needed to wait for
 * payday. {@code authentication_required} is hard because an off-session retry can never pass 3-D
 * Secure; the customer has to act.
 */
public final class DeclineCodes {
  private DeclineCodes() {}

  private static final Set<String> HARD =
      Set.of(
          "card_declined",
          "generic_decline",
          "lost_card",
          "stolen_card",
          "pickup_card",
          "expired_card",
          "restricted_card",
          "fraudulent",
          "merchant_blacklist",
          "security_violation",
          "transaction_not_allowed",
          "not_permitted",
          "invalid_account",
          "incorrect_number",
          "invalid_number",
          "card_not_supported",
          "currency_not_supported",
          "new_account_information_available",
          "stop_payment_order",
          "revocation_of_authorization",
          "revocation_of_all_authorizations",
          "authentication_required",
          "invalid_payment_method",
          "account_closed",
          "no_account",
          "debit_not_authorized",
          "bank_account_restricted");

  /** Stripe's {@code advice_code} values that settle the question when the issuer gives one. */
  public static final String ADVICE_DO_NOT_TRY_AGAIN = "do_not_try_again";

  public static final String ADVICE_TRY_AGAIN_LATER = "try_again_later";
  public static final String ADVICE_CONFIRM_CARD_DATA = "confirm_card_data";

  /** The kind of one decline code; null or unknown codes are SOFT. */
  public static DeclineKind kindOf(String code) {
    return code != null && HARD.contains(code.toLowerCase(Locale.ROOT))
        ? DeclineKind.HARD
        : DeclineKind.SOFT;
  }

  /**
   * The kind of a decline as Stripe reports it. The issuer's advice wins when present ({@code
   * do_not_try_again} and {@code confirm_card_data} are hard, {@code try_again_later} soft);
   * otherwise the issuer's decline code, then the error code.
   */
  public static DeclineKind kindOf(String adviceCode, String declineCode, String code) {
    if (ADVICE_DO_NOT_TRY_AGAIN.equals(adviceCode) || ADVICE_CONFIRM_CARD_DATA.equals(adviceCode)) {
      return DeclineKind.HARD;
    }
    if (ADVICE_TRY_AGAIN_LATER.equals(adviceCode)) {
      return DeclineKind.SOFT;
    }
    return kindOf(declineCode != null ? declineCode : code);
  }
}
